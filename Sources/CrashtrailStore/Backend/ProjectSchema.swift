/// The text of the migrations that keep projects apart (SQLite `v20: projects kept apart`, PostgreSQL
/// `v17: projects kept apart`; SPEC section 19).
///
/// - `report.project`: the project a report was sent to. Reports `serve` stored before name it in their source
///   (`api/ID/…`) and take that ID; every other report takes 1, the store's first project (the `default` project
///   `serve` makes, or the first `crashtrail project add`).
/// - `waitingTrail.project`: the project a waiting trail was sent to, part of its key, so one project's trail never
///   waits for, nor replaces, another's; trails waiting before take 1.
/// - `reportWithTrail` shows the project.
/// - `debugFile`, `debugFileChunk` and `uploadedFile`: keyed by project too, so each project keeps its own debug file of a
///   UUID and symbolicates its crashes with it. Debug files stored before take project 0: kept for every project, as
///   they were, and used for a UUID a project has no debug file of its own for.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum ProjectSchema {
    /// The view `reportWithTrail`, with the project: the one text both backends run.
    static let reportWithTrailView = """
        CREATE VIEW reportWithTrail AS
            SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                r.frames, r.exceptionFrames, r.details, r.signature,
                CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
                CASE WHEN j.id IS NULL THEN r.screenPath ELSE j.screenPath END AS screenPath,
                CASE WHEN j.id IS NULL THEN r.pathManifest ELSE j.pathManifest END AS pathManifest,
                r.pid, r.launchTime, r.source, r.payload, r.payloadSize, r.project
            FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
        """

    /// SQLite's statements.
    package static let sqlite = """
        ALTER TABLE report ADD COLUMN project INTEGER NOT NULL DEFAULT 1;
        UPDATE report SET project = CAST(substr(source, 5, instr(substr(source, 5), '/') - 1) AS INTEGER)
            WHERE source LIKE 'api/%/%' AND substr(source, 5, instr(substr(source, 5), '/') - 1) NOT GLOB '*[^0-9]*'
                AND CAST(substr(source, 5, instr(substr(source, 5), '/') - 1) AS INTEGER) > 1;
        DROP VIEW reportWithTrail;
        \(reportWithTrailView);
        CREATE TABLE waitingTrailByProject (
            project INTEGER NOT NULL,
            bundleID TEXT NOT NULL,
            session TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started INTEGER NOT NULL,
            received INTEGER NOT NULL,
            size INTEGER NOT NULL,
            steps INTEGER NOT NULL,
            trail TEXT NOT NULL,
            dictionary TEXT,
            screenPath TEXT,
            pathManifest TEXT,
            crashScreen TEXT,
            PRIMARY KEY (project, bundleID, session)
        ) WITHOUT ROWID;
        INSERT INTO waitingTrailByProject
            SELECT 1, bundleID, session, pid, started, received, size, steps, trail, dictionary, screenPath, pathManifest,
                crashScreen
            FROM waitingTrail;
        DROP TABLE waitingTrail;
        ALTER TABLE waitingTrailByProject RENAME TO waitingTrail;
        CREATE INDEX waitingTrail_launch ON waitingTrail(project, bundleID, pid, started);
        CREATE INDEX waitingTrail_received ON waitingTrail(received);
        CREATE TABLE debugFileByProject (
            project INTEGER NOT NULL,
            uuid TEXT NOT NULL,
            arch TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            textVMAddr INTEGER NOT NULL,
            size INTEGER NOT NULL,
            sha1 TEXT NOT NULL,
            added TEXT NOT NULL,
            PRIMARY KEY (project, uuid)
        ) WITHOUT ROWID;
        INSERT INTO debugFileByProject SELECT 0, uuid, arch, name, kind, textVMAddr, size, sha1, added FROM debugFile;
        CREATE TABLE debugFileChunkByProject (
            project INTEGER NOT NULL,
            uuid TEXT NOT NULL,
            seq INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (project, uuid, seq),
            FOREIGN KEY (project, uuid) REFERENCES debugFileByProject(project, uuid) ON DELETE CASCADE
        );
        INSERT INTO debugFileChunkByProject SELECT 0, uuid, seq, data FROM debugFileChunk;
        CREATE TABLE uploadedFileByProject (
            project INTEGER NOT NULL,
            checksum TEXT NOT NULL,
            uuid TEXT NOT NULL,
            PRIMARY KEY (project, checksum, uuid),
            FOREIGN KEY (project, uuid) REFERENCES debugFileByProject(project, uuid) ON DELETE CASCADE
        ) WITHOUT ROWID;
        INSERT INTO uploadedFileByProject SELECT 0, checksum, uuid FROM uploadedFile;
        DROP TABLE uploadedFile;
        DROP TABLE debugFileChunk;
        DROP TABLE debugFile;
        ALTER TABLE debugFileByProject RENAME TO debugFile;
        ALTER TABLE debugFileChunkByProject RENAME TO debugFileChunk;
        ALTER TABLE uploadedFileByProject RENAME TO uploadedFile;
        CREATE INDEX debugFile_uuid ON debugFile(uuid);
        CREATE INDEX uploadedFile_uuid ON uploadedFile(project, uuid);
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        "ALTER TABLE report ADD COLUMN project BIGINT NOT NULL DEFAULT 1",
        """
        UPDATE report SET project = CAST(substring(source FROM '^api/([0-9]{1,18})/') AS BIGINT)
            WHERE source ~ '^api/[0-9]{1,18}/' AND substring(source FROM '^api/([0-9]{1,18})/') <> '1'
        """,
        "DROP VIEW reportWithTrail",
        reportWithTrailView,
        "ALTER TABLE waitingTrail ADD COLUMN project BIGINT NOT NULL DEFAULT 1",
        "ALTER TABLE waitingTrail DROP CONSTRAINT waitingtrail_pkey",
        "ALTER TABLE waitingTrail ADD PRIMARY KEY (project, bundleID, session)",
        "DROP INDEX waitingTrail_launch",
        "CREATE INDEX waitingTrail_launch ON waitingTrail(project, bundleID, pid, started)",
        "ALTER TABLE uploadedFile DROP CONSTRAINT uploadedfile_uuid_fkey",
        "ALTER TABLE debugFileChunk DROP CONSTRAINT debugfilechunk_uuid_fkey",
        "ALTER TABLE debugFile ADD COLUMN project BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE debugFileChunk ADD COLUMN project BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE uploadedFile ADD COLUMN project BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE debugFile DROP CONSTRAINT debugfile_pkey",
        "ALTER TABLE debugFile ADD PRIMARY KEY (project, uuid)",
        "ALTER TABLE debugFileChunk DROP CONSTRAINT debugfilechunk_pkey",
        "ALTER TABLE debugFileChunk ADD PRIMARY KEY (project, uuid, seq)",
        "ALTER TABLE debugFileChunk ADD FOREIGN KEY (project, uuid) REFERENCES debugFile(project, uuid) ON DELETE CASCADE",
        "ALTER TABLE uploadedFile DROP CONSTRAINT uploadedfile_pkey",
        "ALTER TABLE uploadedFile ADD PRIMARY KEY (project, checksum, uuid)",
        "ALTER TABLE uploadedFile ADD FOREIGN KEY (project, uuid) REFERENCES debugFile(project, uuid) ON DELETE CASCADE",
        "CREATE INDEX debugFile_uuid ON debugFile(uuid)",
        "DROP INDEX uploadedFile_uuid",
        "CREATE INDEX uploadedFile_uuid ON uploadedFile(project, uuid)",
    ]
}
