/// The text of the migrations that add debug files (SQLite `v13: debug files`, PostgreSQL `v10: debug files`): the
/// slices `crashtrail symbols add` and the upload over HTTP store, in chunks, and an index of the images each report's
/// frames name (`reportImage`), which says which reports a new debug file re-derives and which images still lack one, and
/// the chunks of uploads in progress (`uploadChunk`: Sentry's chunk upload, which `serve` speaks).
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum DebugFileSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE debugFile (
            uuid TEXT PRIMARY KEY NOT NULL,
            arch TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            textVMAddr INTEGER NOT NULL,
            size INTEGER NOT NULL,
            sha1 TEXT NOT NULL,
            added TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE debugFileChunk (
            uuid TEXT NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (uuid, seq)
        );
        CREATE TABLE reportImage (
            uuid TEXT NOT NULL,
            reportID TEXT NOT NULL REFERENCES report(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            inApp INTEGER NOT NULL,
            symbolicated INTEGER NOT NULL,
            PRIMARY KEY (uuid, reportID)
        ) WITHOUT ROWID;
        CREATE INDEX reportImage_report ON reportImage(reportID);
        CREATE INDEX reportImage_waiting ON reportImage(uuid) WHERE symbolicated = 0;
        CREATE TABLE uploadChunk (
            sha1 TEXT PRIMARY KEY NOT NULL,
            data BLOB NOT NULL,
            added TEXT NOT NULL
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO reportImage (uuid, reportID, name, inApp, symbolicated)
            SELECT json_extract(i.value, '$.uuid'), r.id, json_extract(i.value, '$.name'), 1, 0
            FROM report r, json_each(r.details, '$.binaryImages') i
            WHERE json_extract(i.value, '$.uuid') IS NOT NULL AND json_extract(i.value, '$.name') IS NOT NULL
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE debugFile (
            uuid TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            arch TEXT COLLATE "C" NOT NULL,
            name TEXT COLLATE "C" NOT NULL,
            kind TEXT COLLATE "C" NOT NULL,
            textVMAddr BIGINT NOT NULL,
            size BIGINT NOT NULL,
            sha1 TEXT COLLATE "C" NOT NULL,
            added TEXT COLLATE "C" NOT NULL
        )
        """,
        """
        CREATE TABLE debugFileChunk (
            uuid TEXT COLLATE "C" NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            data BYTEA NOT NULL,
            PRIMARY KEY (uuid, seq)
        )
        """,
        "ALTER TABLE debugFileChunk ALTER COLUMN data SET STORAGE EXTERNAL",
        """
        CREATE TABLE reportImage (
            uuid TEXT COLLATE "C" NOT NULL,
            reportID TEXT COLLATE "C" NOT NULL REFERENCES report(id) ON DELETE CASCADE,
            name TEXT COLLATE "C" NOT NULL,
            inApp INTEGER NOT NULL,
            symbolicated INTEGER NOT NULL,
            PRIMARY KEY (uuid, reportID)
        )
        """,
        "CREATE INDEX reportImage_report ON reportImage(reportID)",
        "CREATE INDEX reportImage_waiting ON reportImage(uuid) WHERE symbolicated = 0",
        """
        CREATE TABLE uploadChunk (
            sha1 TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            data BYTEA NOT NULL,
            added TEXT COLLATE "C" NOT NULL
        )
        """,
        "ALTER TABLE uploadChunk ALTER COLUMN data SET STORAGE EXTERNAL",
        """
        INSERT INTO reportImage (uuid, reportID, name, inApp, symbolicated)
        SELECT i.value ->> 'uuid', r.id, i.value ->> 'name', 1, 0
        FROM report r, jsonb_array_elements(COALESCE(r.details::jsonb -> 'binaryImages', '[]'::jsonb)) AS i(value)
        WHERE i.value ->> 'uuid' IS NOT NULL AND i.value ->> 'name' IS NOT NULL
        ON CONFLICT DO NOTHING
        """,
    ]
}
