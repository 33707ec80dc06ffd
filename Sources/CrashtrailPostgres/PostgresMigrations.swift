import CrashtrailStore

/// The PostgreSQL store's schema: named migrations, applied in order, each once, never edited once released.
///
/// The tables and view are the SQLite store's (SQLiteBackend), in PostgreSQL's types; every text column compares byte
/// by byte (`COLLATE "C"`), so listings sort exactly as they do in SQLite.
enum PostgresMigrations {
    /// Identifier and statements of each migration, oldest first.
    static let all: [(identifier: String, statements: [String])] = [
        (
            "v1: reports, joined trails, manifests, reprocess cursor",
            [
                """
                CREATE FUNCTION crashtrail_instant(value TEXT) RETURNS TIMESTAMPTZ LANGUAGE plpgsql STABLE AS $$
                BEGIN
                    RETURN value::TIMESTAMPTZ;
                EXCEPTION WHEN OTHERS THEN
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TABLE report (
                    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    format TEXT COLLATE "C" NOT NULL,
                    sha256 TEXT COLLATE "C" NOT NULL,
                    bundleID TEXT COLLATE "C",
                    appVersion TEXT COLLATE "C",
                    appBuild TEXT COLLATE "C",
                    osName TEXT COLLATE "C",
                    osVersion TEXT COLLATE "C",
                    device TEXT COLLATE "C",
                    time TEXT COLLATE "C",
                    exceptionType TEXT COLLATE "C",
                    exceptionCode TEXT COLLATE "C",
                    exceptionSignal TEXT COLLATE "C",
                    exceptionReason TEXT COLLATE "C",
                    frames TEXT COLLATE "C" NOT NULL,
                    signature TEXT COLLATE "C" NOT NULL,
                    trailSource TEXT COLLATE "C" NOT NULL,
                    trailSteps BIGINT,
                    trailError TEXT COLLATE "C",
                    trail TEXT COLLATE "C",
                    pid BIGINT,
                    launchTime BIGINT,
                    source TEXT COLLATE "C" NOT NULL,
                    payload BYTEA NOT NULL,
                    payloadSize BIGINT NOT NULL
                )
                """,
                "CREATE INDEX report_signature ON report(signature)",
                "CREATE INDEX report_time ON report(time)",
                "CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource = 'missing'",
                "CREATE INDEX report_sha256 ON report(sha256)",
                """
                CREATE TABLE joinedTrail (
                    id TEXT COLLATE "C" PRIMARY KEY NOT NULL REFERENCES report(id) ON DELETE CASCADE,
                    steps BIGINT NOT NULL,
                    trail TEXT COLLATE "C" NOT NULL
                )
                """,
                """
                CREATE VIEW reportWithTrail AS
                    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                        r.frames, r.signature,
                        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
                """,
                """
                CREATE TABLE manifest (
                    dictionaryID TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    app TEXT COLLATE "C" NOT NULL,
                    source TEXT COLLATE "C" NOT NULL,
                    text TEXT COLLATE "C" NOT NULL,
                    seq BIGSERIAL NOT NULL
                )
                """,
                """
                CREATE TABLE reprocessCursor (
                    job TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    lastID TEXT COLLATE "C" NOT NULL
                )
                """,
            ]
        ),
        // The dictionary ID an encoded trail named, stored with its trail, so replay never reads the payload again.
        (
            "v2: trail dictionary",
            [
                "ALTER TABLE report ADD COLUMN trailDictionary TEXT COLLATE \"C\"",
                "ALTER TABLE joinedTrail ADD COLUMN dictionary TEXT COLLATE \"C\"",
                "DROP VIEW reportWithTrail",
                """
                CREATE VIEW reportWithTrail AS
                    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                        r.frames, r.signature,
                        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
                        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
                """,
            ]
        ),
        // Inferred trails (SPEC section 15) await a recorded one as missing ones do, so the join index covers them.
        (
            "v3: inferred trails",
            [
                "DROP INDEX report_join",
                "CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource IN ('missing', 'inferred')",
            ]
        ),
        // The uncaught exception's own backtrace, which names the group of an exception crash.
        (
            "v4: exception backtrace",
            [
                "ALTER TABLE report ADD COLUMN exceptionFrames TEXT COLLATE \"C\" NOT NULL DEFAULT '[]'",
                "DROP VIEW reportWithTrail",
                """
                CREATE VIEW reportWithTrail AS
                    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                        r.frames, r.exceptionFrames, r.signature,
                        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                        CASE WHEN j.id IS NULL THEN r.trailDictionary ELSE j.dictionary END AS trailDictionary,
                        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
                """,
            ]
        ),
        // The report's details, each trail's last screens as its app's manifest replays them, and indexes in list
        // order (as SQLite's `v9`).
        (
            "v5: report details, screen paths, listing indexes",
            [
                "ALTER TABLE report ADD COLUMN details TEXT COLLATE \"C\" NOT NULL DEFAULT '{}'",
                "ALTER TABLE report ADD COLUMN screenPath TEXT COLLATE \"C\"",
                "ALTER TABLE report ADD COLUMN pathManifest TEXT COLLATE \"C\"",
                "ALTER TABLE joinedTrail ADD COLUMN screenPath TEXT COLLATE \"C\"",
                "ALTER TABLE joinedTrail ADD COLUMN pathManifest TEXT COLLATE \"C\"",
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
                        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
                """,
                "DROP INDEX report_signature",
                "DROP INDEX report_time",
                "CREATE INDEX report_recent ON report((time IS NULL), time DESC, id)",
                "CREATE INDEX report_group_recent ON report(signature, (time IS NULL), time DESC, id)",
            ]
        ),
        // The projects `crashtrail serve` accepts reports for (as SQLite's `v10`), and payloads stored as they come:
        // they are zstd frames already, and PostgreSQL's own compression of large values (pglz) would only spend the
        // server's CPU on them again.
        (
            "v6: projects, payloads compressed once",
            [
                "ALTER TABLE report ALTER COLUMN payload SET STORAGE EXTERNAL",
                """
                CREATE TABLE project (
                    id BIGINT PRIMARY KEY NOT NULL,
                    name TEXT COLLATE "C" NOT NULL UNIQUE,
                    key TEXT COLLATE "C" NOT NULL UNIQUE,
                    revoked INTEGER NOT NULL DEFAULT 0
                )
                """,
            ]
        ),
        // Each group's counts, kept by statement triggers as reports arrive (PostgresGroupCounts.swift).
        ("v7: group counts kept as reports arrive", PostgresGroupCounts.migration),
        // Trails are canonical JSON of about 10 KB, which PostgreSQL compresses when it moves them out of the row.
        // Its default method, pglz, took a quarter of the server's CPU during an ingest (`perf`, 10,000 reports);
        // lz4 takes a fraction of that, for a store 6 % larger. Rows stored before keep their pglz values, which
        // read as before. A server built without lz4 keeps pglz: the store works the same, only slower to fill.
        (
            "v8: trails compressed with lz4",
            [
                """
                DO $$
                BEGIN
                    ALTER TABLE report ALTER COLUMN trail SET COMPRESSION lz4;
                    ALTER TABLE joinedTrail ALTER COLUMN trail SET COMPRESSION lz4;
                EXCEPTION WHEN feature_not_supported THEN
                    NULL;
                END
                $$
                """
            ]
        ),
        // How many reports with a trail share each stored screen path in each group, kept by statement triggers as
        // reports arrive (PostgresPathCounts.swift).
        ("v9: path counts kept as reports arrive", PostgresPathCounts.migration),
        // Debug files in chunks, and the images each report's frames name (DebugFileSchema.swift in CrashtrailStore).
        ("v10: debug files", DebugFileSchema.postgres),
        // The reports still to reach each upstream they are forwarded to (ForwardSchema.swift in CrashtrailStore).
        ("v11: forwarding outbox", ForwardSchema.postgres),
        // Trails joined by the session their crash carries, and trails kept until their crash comes
        // (SessionJoinSchema.swift in CrashtrailStore).
        ("v12: session joins and waiting trails", SessionJoinSchema.postgres),
        // Which debug files each uploaded file held (UploadedFileSchema.swift in CrashtrailStore).
        ("v13: uploaded files", UploadedFileSchema.postgres),
        // Grouping rules and merges, per project (GroupingSchema.swift in CrashtrailStore).
        ("v14: grouping rules", GroupingSchema.postgres),
        // Sessions and the paths of sessions that did not crash, counted (HealthSchema.swift in CrashtrailStore).
        ("v15: release health", HealthSchema.postgres),
        // Tokens with scopes, per-project rate limits, upload chunks by project (TrustSchema.swift in CrashtrailStore).
        ("v16: tokens and limits", TrustSchema.postgres),
        // The project of every report, waiting trail and debug file (ProjectSchema.swift in CrashtrailStore).
        ("v17: projects kept apart", ProjectSchema.postgres),
        // The index a project's reads find its reports by, and upload chunks keyed by project (ProjectScopeSchema.swift
        // in CrashtrailStore).
        ("v18: reads and upload chunks per project", ProjectScopeSchema.postgres),
        // A project's waiting trails counted as they come and go, and joined trails found by their digest
        // (WaitingTrailTotalsSchema.swift in CrashtrailStore).
        ("v19: waiting trails counted, joined trails by digest", WaitingTrailTotalsSchema.postgres),
        // The sessions counted lately, so an update sent again counts once (SessionMemorySchema.swift in CrashtrailStore).
        ("v20: sessions seen", SessionMemorySchema.postgres),
    ]

    /// The table that records the applied migrations.
    static let table = "crashtrail_migrations"

    /// The advisory lock that makes workers starting together migrate one at a time ("crashtrail" in ASCII).
    static let lockKey: Int64 = 0x6372_6173_6874_7261
}
