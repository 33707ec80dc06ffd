/// The text of the migrations that remember which debug files an uploaded file held (SQLite `v16: uploaded files`,
/// PostgreSQL `v13: uploaded files`).
///
/// - `uploadedFile`: a file assembled from Sentry's chunk upload, by its whole SHA-1 (`checksum`), and the UUID of each
///   slice stored from it. A universal file holds several slices, each stored by its own SHA-1, so the whole file's is
///   found only here: the next upload of the same file is answered `ok` at once and sends no chunk.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum UploadedFileSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE uploadedFile (
            checksum TEXT NOT NULL,
            uuid TEXT NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
            PRIMARY KEY (checksum, uuid)
        ) WITHOUT ROWID;
        CREATE INDEX uploadedFile_uuid ON uploadedFile(uuid);
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE uploadedFile (
            checksum TEXT COLLATE "C" NOT NULL,
            uuid TEXT COLLATE "C" NOT NULL REFERENCES debugFile(uuid) ON DELETE CASCADE,
            PRIMARY KEY (checksum, uuid)
        )
        """,
        "CREATE INDEX uploadedFile_uuid ON uploadedFile(uuid)",
    ]
}
