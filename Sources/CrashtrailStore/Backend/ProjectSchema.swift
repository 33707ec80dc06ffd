/// The text of the migrations that keep projects apart (SQLite `v20: reports and trails by project`, PostgreSQL
/// `v17: reports and trails by project`; SPEC section 19).
///
/// - `report.project`: the project a report was sent to. Reports `serve` stored before name it in their source
///   (`api/ID/…`) and take that ID; every other report takes 1, the store's first project (the `default` project
///   `serve` makes, or the first `crashtrail project add`).
/// - `waitingTrail.project`: the project a waiting trail was sent to, part of its key, so one project's trail never
///   waits for, nor replaces, another's; trails waiting before take 1.
/// - `reportWithTrail` shows the project.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum ProjectSchema {
    /// SQLite's statements.
    package static let sqlite = """
        ALTER TABLE report ADD COLUMN project INTEGER NOT NULL DEFAULT 1;
        UPDATE report SET project = CAST(substr(source, 5, instr(substr(source, 5), '/') - 1) AS INTEGER)
            WHERE source LIKE 'api/%/%' AND CAST(substr(source, 5, instr(substr(source, 5), '/') - 1) AS INTEGER) > 1;
        DROP VIEW reportWithTrail;
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
            FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
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
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        "ALTER TABLE report ADD COLUMN project BIGINT NOT NULL DEFAULT 1",
        """
        UPDATE report SET project = CAST(substring(source FROM '^api/([0-9]{1,18})/') AS BIGINT)
            WHERE source ~ '^api/[0-9]{1,18}/' AND substring(source FROM '^api/([0-9]{1,18})/') <> '1'
        """,
        "DROP VIEW reportWithTrail",
        """
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
        """,
        "ALTER TABLE waitingTrail ADD COLUMN project BIGINT NOT NULL DEFAULT 1",
        "ALTER TABLE waitingTrail DROP CONSTRAINT waitingtrail_pkey",
        "ALTER TABLE waitingTrail ADD PRIMARY KEY (project, bundleID, session)",
        "DROP INDEX waitingTrail_launch",
        "CREATE INDEX waitingTrail_launch ON waitingTrail(project, bundleID, pid, started)",
    ]
}
