import Foundation
import GRDB

/// The embedded SQLite store: one file, nothing to set up (SPEC section 8).
///
/// Tests hand it a `DatabaseQueue()` in memory; the CLI opens a file with ``open(path:willMigrate:)`` (a WAL `DatabasePool`).
package final class SQLiteBackend: StoreBackend {
    /// The GRDB database this backend owns.
    package let writer: any DatabaseWriter
    package let location: String
    package var dialect: StoreDialect { .sqlite }

    /// A backend over `writer`, migrated to the current schema.
    /// - Parameters:
    ///   - writer: the database.
    ///   - location: the store's path, for messages.
    ///   - willMigrate: told the migrations about to run on a store that already has tables, before they run (a
    ///     migration may count every stored report once); not called for a new store or one that is up to date.
    /// - Throws: `StoreError` (`cannot-open`) when the schema is a newer crashtrail's or the migration fails.
    package init(
        _ writer: any DatabaseWriter, location: String = ":memory:", willMigrate: (@Sendable ([String]) -> Void)? = nil
    ) throws(StoreError) {
        self.writer = writer
        self.location = location
        let migrator = Self.migrator
        let unknown: [String]
        let pending: [String]
        do {
            (unknown, pending) = try writer.read { db in
                guard try db.tableExists("grdb_migrations") else { return ([], []) }
                let known = Set(migrator.migrations)
                let applied = try migrator.appliedIdentifiers(db)
                return (applied.filter { !known.contains($0) }.sorted(), migrator.migrations.filter { !applied.contains($0) })
            }
        } catch {
            throw StoreError(.cannotOpen, "could not read the crash store's schema: \(error)")
        }
        guard unknown.isEmpty else { throw StoreError.newerSchema(unknown) }
        if !pending.isEmpty { willMigrate?(pending) }
        do {
            try migrator.migrate(writer)
        } catch {
            throw StoreError(.cannotOpen, "could not prepare the crash store's tables: \(error)")
        }
    }

    /// Opens (creating if needed) the store file at `path`, in WAL mode.
    ///
    /// Jobs opening the same new store at once take turns (an exclusive lock on `path.lock`), so none of them fails on
    /// the other's half-made tables.
    /// - Parameters:
    ///   - path: the store file.
    ///   - willMigrate: told the migrations about to run on an existing store, before they run.
    /// - Returns: the backend, migrated.
    /// - Throws: `StoreError` (`cannot-open`) naming the path.
    package static func open(path: String, willMigrate: (@Sendable ([String]) -> Void)? = nil) throws(StoreError) -> SQLiteBackend {
        // Jobs that start together on a new store would race to switch it to WAL and to create its tables;
        // an exclusive lock on a file beside it serializes opening and migrating (it is released at once).
        let lock = Foundation.open(path + ".lock", O_CREAT | O_RDWR, 0o644)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        let pool: DatabasePool
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            // The writer's page cache, 8 MiB instead of SQLite's 2 MiB, keeps the five indexes' pages in memory
            // while an ingest writes, instead of reading them back from the file: about 1% fewer instructions
            // (user and kernel) for the 10,000-report bench (BENCHMARKS.md, Ingest). Durability is unchanged.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)") }
            // Each insert after the first in a transaction keeps the pages it changes in a statement journal, so that
            // it alone can be undone. Beyond 64 KiB SQLite moves that journal to a temporary file, which an ingest then
            // wrote more bytes to than to the store itself (458 MB for 10,000 reports, 200 MB of store). In memory it
            // is a copy of the ten or so pages a statement changes; the store's durability is the same.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        } catch {
            throw StoreError(
                .cannotOpen, "could not open the crash store \(path): \(error); check that the folder exists and is writable")
        }
        return try SQLiteBackend(pool, location: path, willMigrate: willMigrate)
    }

    /// The store file, the files SQLite keeps beside it and the store's open lock; none in memory.
    package var localFiles: [String] {
        guard location != ":memory:" else { return [] }
        return [location, location + "-wal", location + "-shm", location + "-journal", location + ".lock"]
    }

    /// The writer connection's page cache, in KiB.
    static let writerCacheKiB = 8_192

    package func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try writer.read { db in try body(SQLiteTransaction(db)) }
    }

    package func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try writer.write { db in try body(SQLiteTransaction(db)) }
    }

    /// The schema.
    ///
    /// Migrations are named, never edited once released, and use plain strings.
    /// Writes a store as a release whose last migration was `last` wrote it, then runs `statements` on it: what the
    /// tests of opening an older store start from.
    /// - Throws: GRDB's error.
    package static func migrateForTests(path: String, upTo last: String, then statements: [String] = []) throws {
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue, upTo: last)
        try queue.write { db in
            for statement in statements { try db.execute(sql: statement) }
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: reports") { db in
            try db.execute(
                sql: """
                    CREATE TABLE report (
                        id TEXT PRIMARY KEY NOT NULL,
                        format TEXT NOT NULL,
                        sha256 TEXT NOT NULL,
                        bundleID TEXT,
                        appVersion TEXT,
                        appBuild TEXT,
                        osName TEXT,
                        osVersion TEXT,
                        device TEXT,
                        time TEXT,
                        exceptionType TEXT,
                        exceptionCode TEXT,
                        exceptionSignal TEXT,
                        exceptionReason TEXT,
                        frames TEXT NOT NULL,
                        signature TEXT NOT NULL,
                        trailSource TEXT NOT NULL,
                        trailSteps INTEGER,
                        trailError TEXT,
                        trail TEXT,
                        pid INTEGER,
                        launchTime INTEGER,
                        source TEXT NOT NULL,
                        payload BLOB NOT NULL,
                        payloadSize INTEGER NOT NULL
                    );
                    CREATE INDEX report_signature ON report(signature);
                    CREATE INDEX report_time ON report(time);
                    CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource = 'missing';
                    """)
        }
        migrator.registerMigration("v2: payload digest index") { db in
            try db.execute(sql: "CREATE INDEX report_sha256 ON report(sha256)")
        }
        // A trail joined later is stored in a row of its own instead of updating the report's: an UPDATE rewrites
        // the whole report row, compressed payload included (about three times the work, BENCHMARKS.md, Ingest).
        // Reports are read through `reportWithTrail`, which lays a joined trail over its report's `missing` one;
        // trails joined by older versions stay in their report rows and read the same.
        migrator.registerMigration("v3: joined trails beside their reports") { db in
            try db.execute(
                sql: """
                    CREATE TABLE joinedTrail (
                        id TEXT PRIMARY KEY NOT NULL REFERENCES report(id) ON DELETE CASCADE,
                        steps INTEGER NOT NULL,
                        trail TEXT NOT NULL
                    );
                    CREATE VIEW reportWithTrail AS
                        SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                            r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                            r.frames, r.signature,
                            CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                            CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                            CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                            CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                            r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                        FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
                    """)
        }
        // Manifests by dictionary ID, with their text, so stored reports replay without --manifest and trails that
        // came before their manifest are decoded when it arrives (ReportStore+Manifests.swift).
        migrator.registerMigration("v4: manifests") { db in
            try db.execute(
                sql: """
                    CREATE TABLE manifest (
                        dictionaryID TEXT PRIMARY KEY NOT NULL,
                        app TEXT NOT NULL,
                        source TEXT NOT NULL,
                        text TEXT NOT NULL
                    )
                    """)
        }
        // How far an interrupted `crashtrail reprocess` got, so the next run resumes after it
        // (ReportStore+Reprocess.swift).
        migrator.registerMigration("v5: reprocess cursor") { db in
            try db.execute(sql: "CREATE TABLE reprocessCursor (job TEXT PRIMARY KEY NOT NULL, lastID TEXT NOT NULL)")
        }
        // The dictionary ID an encoded trail named, stored with its trail, so replay compares it with the manifest it
        // is given without reading the payload again. Reports stored before have none until `crashtrail reprocess`.
        migrator.registerMigration("v6: trail dictionary") { db in
            try db.execute(
                sql: """
                    ALTER TABLE report ADD COLUMN trailDictionary TEXT;
                    ALTER TABLE joinedTrail ADD COLUMN dictionary TEXT;
                    DROP VIEW reportWithTrail;
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
                        FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
                    """)
        }
        // Trails inferred from breadcrumbs (SPEC section 15) await a recorded trail as missing ones do, so the join
        // index covers them too.
        migrator.registerMigration("v7: inferred trails") { db in
            try db.execute(
                sql: """
                    DROP INDEX report_join;
                    CREATE INDEX report_join ON report(bundleID, pid) WHERE trailSource IN ('missing', 'inferred');
                    """)
        }
        // The uncaught exception's own backtrace, which names the group of an exception crash; reports stored before
        // have none until `crashtrail reprocess`.
        migrator.registerMigration("v8: exception backtrace") { db in
            try db.execute(
                sql: """
                    ALTER TABLE report ADD COLUMN exceptionFrames TEXT NOT NULL DEFAULT '[]';
                    DROP VIEW reportWithTrail;
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
                        FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
                    """)
        }
        // What a report keeps beyond its listing columns (the crashed thread's index, the Mach and language exceptions,
        // the binary images its frames name: `details`), each trail's last screens as its app's manifest replays them
        // (on the report and the joined trail, so `paths` need not replay), and indexes in list order, so a listing's
        // first page costs the same at any store size; they replace the single-column indexes on signature and time.
        // Reports stored before have none of the new columns until `crashtrail reprocess`, and are replayed until then.
        migrator.registerMigration("v9: report details, screen paths, listing indexes") { db in
            try db.execute(
                sql: """
                    ALTER TABLE report ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
                    ALTER TABLE report ADD COLUMN screenPath TEXT;
                    ALTER TABLE report ADD COLUMN pathManifest TEXT;
                    ALTER TABLE joinedTrail ADD COLUMN screenPath TEXT;
                    ALTER TABLE joinedTrail ADD COLUMN pathManifest TEXT;
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
                            r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                        FROM report r LEFT JOIN joinedTrail j ON j.id = r.id;
                    DROP INDEX report_signature;
                    DROP INDEX report_time;
                    CREATE INDEX report_recent ON report(time IS NULL, time DESC, id);
                    CREATE INDEX report_group_recent ON report(signature, time IS NULL, time DESC, id);
                    """)
        }
        // The projects `crashtrail serve` accepts reports for, each with the key of its DSN
        // (ReportStore+Projects.swift).
        migrator.registerMigration("v10: projects") { db in
            try db.execute(
                sql: """
                    CREATE TABLE project (
                        id INTEGER PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL UNIQUE,
                        key TEXT NOT NULL UNIQUE,
                        revoked INTEGER NOT NULL DEFAULT 0
                    )
                    """)
        }
        // Each group's counts (by trail, app version, day and stored screen path), kept by triggers as reports arrive,
        // so listing groups costs what the groups cost, not what their reports cost (SQLiteGroupCounts.swift).
        migrator.registerMigration("v11: group counts kept as reports arrive") { db in
            try db.execute(sql: SQLiteGroupCounts.migration)
        }
        // How many reports with a trail share each stored screen path in each group, kept by triggers as reports
        // arrive, so `paths` reads a group's distinct paths instead of its reports (SQLitePathCounts.swift).
        migrator.registerMigration("v12: path counts kept as reports arrive") { db in
            try db.execute(sql: SQLitePathCounts.migration)
        }
        // Debug files in chunks, and the images each report's frames name (DebugFileSchema.swift, SPEC section 16).
        migrator.registerMigration("v13: debug files") { db in
            try db.execute(sql: DebugFileSchema.sqlite)
        }
        // The reports still to reach each upstream they are forwarded to (ForwardSchema.swift, SPEC section 17).
        migrator.registerMigration("v14: forwarding outbox") { db in
            try db.execute(sql: ForwardSchema.sqlite)
        }
        // Trails joined by the session their crash carries, and trails kept until their crash comes
        // (SessionJoinSchema.swift, SPEC section 18).
        migrator.registerMigration("v15: session joins and waiting trails") { db in
            try db.execute(sql: SessionJoinSchema.sqlite)
        }
        // Which debug files each uploaded file held, so uploading it again sends nothing (UploadedFileSchema.swift).
        migrator.registerMigration("v16: uploaded files") { db in
            try db.execute(sql: UploadedFileSchema.sqlite)
        }
        // Grouping rules and merges, per project (GroupingSchema.swift, SPEC section 21).
        migrator.registerMigration("v17: grouping rules") { db in
            try db.execute(sql: GroupingSchema.sqlite)
        }
        // Sessions and the paths of sessions that did not crash, counted (HealthSchema.swift, SPEC section 20).
        migrator.registerMigration("v18: release health") { db in
            try db.execute(sql: HealthSchema.sqlite)
        }
        // Tokens with scopes, per-project rate limits, upload chunks by project (TrustSchema.swift, SPEC section 19).
        migrator.registerMigration("v19: tokens and limits") { db in
            try db.execute(sql: TrustSchema.sqlite)
        }
        // The project of every report, waiting trail and debug file, so joins, duplicates and symbolication are decided
        // within a project (ProjectSchema.swift, SPEC section 19).
        migrator.registerMigration("v20: projects kept apart") { db in
            try db.execute(sql: ProjectSchema.sqlite)
        }
        // The index a project's reads find its reports by, and upload chunks keyed by project (ProjectScopeSchema.swift,
        // SPEC section 19).
        migrator.registerMigration("v21: reads and upload chunks per project") { db in
            try db.execute(sql: ProjectScopeSchema.sqlite)
        }
        // A project's waiting trails counted as they come and go, and joined trails found by their digest
        // (WaitingTrailTotalsSchema.swift, SPEC section 18). SQLite has no SHA-256: the rows stored before get theirs
        // from a function of the migration's own.
        migrator.registerMigration("v22: waiting trails counted, joined trails by digest") { db in
            try db.execute(sql: WaitingTrailTotalsSchema.sqlite)
            let sha256 = DatabaseFunction("crashtrail_sha256", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map { ReportStore.trailDigest(Array($0.utf8)) }
            }
            db.add(function: sha256)
            try db.execute(sql: "UPDATE waitingTrail SET digest = crashtrail_sha256(trail)")
            try db.execute(sql: "UPDATE joinedTrail SET digest = crashtrail_sha256(trail)")
            db.remove(function: sha256)
        }
        // The sessions counted lately, so an update sent again counts once (SessionMemorySchema.swift, SPEC section 20).
        migrator.registerMigration("v23: sessions seen") { db in
            try db.execute(sql: SessionMemorySchema.sqlite)
        }
        return migrator
    }
}
