import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB

/// The SQLite store of ingested crashes: the one type that owns the database.
///
/// Tests give it a `DatabaseQueue()` (in memory); the CLI opens a file with ``open(path:)`` (a WAL
/// `DatabasePool`).
public final class ReportStore: Sendable {
    /// The database this store owns.
    public let writer: any DatabaseWriter

    /// A store over `writer`, migrated to the current schema.
    /// - Throws: `StoreError` (`cannot-open`) when the migration fails.
    public init(_ writer: any DatabaseWriter) throws(StoreError) {
        self.writer = writer
        let migrator = Self.migrator
        let unknown: [String]
        do {
            unknown = try writer.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                let known = Set(migrator.migrations)
                return try migrator.appliedIdentifiers(db).filter { !known.contains($0) }.sorted()
            }
        } catch {
            throw StoreError(.cannotOpen, "could not read the crash store's schema: \(error)")
        }
        guard unknown.isEmpty else {
            throw StoreError(
                .cannotOpen,
                "the crash store was written by a newer crashtrail (its schema has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")), which this version does not know); upgrade crashtrail to read it, or use another --store")
        }
        do {
            try migrator.migrate(writer)
        } catch {
            throw StoreError(.cannotOpen, "could not prepare the crash store's tables: \(error)")
        }
    }

    /// Opens (creating if needed) the store file at `path`, in WAL mode. Jobs opening the same new store at once
    /// take turns (an exclusive lock on `path.lock`), so none of them fails on the other's half-made tables.
    /// - Throws: `StoreError` (`cannot-open`) naming the path.
    public static func open(path: String) throws(StoreError) -> ReportStore {
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
        } catch {
            throw StoreError(
                .cannotOpen, "could not open the crash store \(path): \(error); check that the folder exists and is writable")
        }
        return try ReportStore(pool)
    }

    /// The writer connection's page cache, in KiB.
    static let writerCacheKiB = 8_192

    /// The schema. Migrations are named, never edited once released, and use plain strings.
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
        return migrator
    }

    /// What storing one payload did.
    public enum InsertOutcome: Hashable, Sendable {
        /// Stored under this ID (the payload's own, or `ID~hash` when that ID held other bytes).
        case stored(String)
        /// These bytes are already stored under this ID.
        case duplicate(String)
    }

    /// Stores `record` unless its bytes are already stored; a payload whose ID is taken by other bytes is kept
    /// under `ID~` plus the first 12 hex digits of its SHA-256 (SPEC section 8).
    /// - Throws: GRDB's `DatabaseError`.
    public static func insert(_ record: ReportRecord, in db: Database) throws -> InsertOutcome {
        var record = record
        if let existing = try String.fetchOne(db.cachedStatement(sql: "SELECT sha256 FROM report WHERE id = ?"), arguments: [record.id]) {
            if existing == record.sha256 { return .duplicate(record.id) }
            let alternative = record.id + "~" + record.sha256.prefix(12)
            if try ReportRecord.exists(db, key: alternative) { return .duplicate(alternative) }
            record.id = alternative
        }
        try record.insert(db)
        return .stored(record.id)
    }

    /// The ID of a stored report whose payload has exactly these bytes (by SHA-256), if any.
    /// - Throws: `StoreError` (`database`).
    public func reportID(payloadDigest digest: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM report WHERE sha256 = ? LIMIT 1"), arguments: [digest]) }
    }

    /// The first eight bytes of every stored payload digest (``digestPrefix(_:)``): a set that answers "certainly
    /// not stored" for a new payload without a read transaction.
    /// - Throws: `StoreError` (`database`).
    public func storedDigestPrefixes() throws(StoreError) -> Set<UInt64> {
        try read { db in
            var prefixes = Set<UInt64>()
            let digests = try String.fetchCursor(db, sql: "SELECT sha256 FROM report")
            while let digest = try digests.next() {
                if let prefix = Self.digestPrefix(digest) { prefixes.insert(prefix) }
            }
            return prefixes
        }
    }

    /// The first sixteen hex digits of a digest as a number, or nil when they are not hex digits.
    public static func digestPrefix(_ digest: String) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        for byte in digest.utf8.prefix(16) {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
            count += 1
        }
        return count == 16 ? value : nil
    }

    /// When a `report` row still awaits a trail: stored without one, and none joined since (`joinedTrail`).
    private static let awaitsTrail =
        "trailSource = 'missing' AND NOT EXISTS (SELECT 1 FROM joinedTrail WHERE joinedTrail.id = report.id)"

    /// Candidates for joining separate trails: reports missing a trail that have a bundle ID, pid and launch time.
    /// - Throws: `StoreError` (`database`).
    public func countReportsAwaitingTrail() throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM report
                    WHERE \(Self.awaitsTrail) AND bundleID IS NOT NULL AND pid IS NOT NULL AND launchTime IS NOT NULL
                    """
            ) ?? 0
        }
    }

    /// Runs `updates` in one write transaction.
    /// - Throws: `StoreError` (`database`) wrapping the failure.
    public func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.write(updates)
        } catch {
            throw StoreError(.database, "writing to the crash store failed: \(error)")
        }
    }

    func read<T>(_ value: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.read(value)
        } catch {
            throw StoreError(.database, "reading the crash store failed: \(error)")
        }
    }

    /// The report stored under exactly `id`.
    /// - Throws: `StoreError` (`database`).
    public func record(id: String) throws(StoreError) -> ReportRecord? {
        try read { db in try ReportRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM reportWithTrail WHERE id = ?"), arguments: [id]) }
    }

    /// The report whose ID is `prefix` or the only one starting with it (letters compared without case, so a
    /// UUID prefix may be typed in lower case).
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidates.
    public func record(matchingPrefix prefix: String) throws(StoreError) -> ReportRecord {
        guard !prefix.isEmpty else { throw StoreError(.notFound, "give a report ID or a prefix of one; `crashtrail list --reports` lists them") }
        if let exact = try record(id: prefix) { return exact }
        let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let candidates = try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM report WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 21", arguments: [escaped + "%"])
        }.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
        guard let only = candidates.first else {
            throw StoreError(.notFound, "no stored report has an ID starting with \"\(prefix)\"; `crashtrail list --reports` lists them")
        }
        guard candidates.count == 1 else {
            throw StoreError(
                .ambiguous,
                "the ID prefix \"\(prefix)\" matches \(candidates.count > 20 ? "more than 20" : String(candidates.count)) reports; give more of the ID",
                candidates: Array(candidates.prefix(20)))
        }
        guard let record = try record(id: only) else { throw StoreError(.notFound, "report \(only) disappeared while reading it") }
        return record
    }

    /// The reports `filter` takes (every report by default), newest first, then by ID (SPEC section 8), without
    /// payloads.
    /// - Throws: `StoreError` (`database`).
    public func reports(_ filter: ReportFilter = .all) throws(StoreError) -> [CrashReport] {
        let (condition, arguments) = filter.sql
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, format, sha256, bundleID, appVersion, appBuild, osName, osVersion, device, time,
                        exceptionType, exceptionCode, exceptionSignal, exceptionReason, frames, signature,
                        trailSource, trailSteps, trailError, NULL AS trail, pid, launchTime, source,
                        X'' AS payload, 0 AS payloadSize
                    FROM reportWithTrail WHERE \(condition)
                    ORDER BY time IS NULL, time DESC, id
                    """, arguments: arguments)
            return try rows.map { try ReportRecord(row: $0).report }
        }
    }

    /// Calls `body` with each report `filter` takes, newest first, then by ID, with its stored trail JSON and without
    /// its payload, one at a time from a cursor: memory stays bounded however many reports there are.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachReport(_ filter: ReportFilter = .all, _ body: (CrashReport, _ trailJSON: String?) throws -> Void) throws(StoreError) {
        let (condition, arguments) = filter.sql
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, format, sha256, bundleID, appVersion, appBuild, osName, osVersion, device, time,
                        exceptionType, exceptionCode, exceptionSignal, exceptionReason, frames, signature,
                        trailSource, trailSteps, trailError, trail, pid, launchTime, source,
                        X'' AS payload, 0 AS payloadSize
                    FROM reportWithTrail WHERE \(condition)
                    ORDER BY time IS NULL, time DESC, id
                    """, arguments: arguments)
            while let row = try rows.next() {
                let record = try ReportRecord(row: row)
                try body(record.report, record.trail)
            }
        }
    }

    /// The crash groups of the reports `filter` takes (every report by default): by count, then last seen (newest
    /// first), then signature (SPEC section 8).
    /// - Throws: `StoreError` (`database`).
    public func groups(_ filter: ReportFilter = .all) throws(StoreError) -> [CrashGroup] {
        let (condition, arguments) = filter.sql
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT signature, COUNT(*) AS count, MIN(time) AS firstSeen, MAX(time) AS lastSeen,
                        SUM(trailSource IN ('embedded', 'joined')) AS withTrail
                    FROM reportWithTrail WHERE \(condition) GROUP BY signature
                    """, arguments: arguments)
            var groups: [CrashGroup] = []
            for row in rows {
                let signature: String = row["signature"]
                var versionFilter = filter
                versionFilter.signature = signature
                let (versionCondition, versionArguments) = versionFilter.sql
                let versions = try String.fetchAll(
                    db, sql: "SELECT DISTINCT appVersion FROM reportWithTrail WHERE \(versionCondition) AND appVersion IS NOT NULL",
                    arguments: versionArguments)
                groups.append(
                    CrashGroup(
                        signature: signature, count: row["count"], firstSeen: row["firstSeen"], lastSeen: row["lastSeen"],
                        versions: versions.sorted(by: CanonicalJSON.codePointPrecedes), withTrail: row["withTrail"]))
            }
            return groups.sorted { lhs, rhs in
                if lhs.count != rhs.count { return lhs.count > rhs.count }
                if lhs.lastSeen != rhs.lastSeen { return (lhs.lastSeen ?? "") > (rhs.lastSeen ?? "") }
                return CanonicalJSON.codePointPrecedes(lhs.signature, rhs.signature)
            }
        }
    }

    /// Reports still missing a trail that a trail from this app, pid and session start could belong to: launched
    /// within `tolerance` milliseconds of `started`.
    /// - Throws: `StoreError` (`database`).
    public func reportsAwaitingTrail(bundleID: String, pid: Int64, started: Int64, tolerance: Int64 = 2000) throws(StoreError) -> [String] {
        try read { db in try Self.reportsAwaitingTrail(bundleID: bundleID, pid: pid, started: started, tolerance: tolerance, in: db) }
    }

    /// Attaches a trail that arrived separately to a stored report.
    /// - Throws: `StoreError` (`database`).
    public func attachTrail(_ trail: Trail, toReport id: String) throws(StoreError) {
        let decoded = DecodedTrail(trail)
        _ = try write { db in try Self.attachTrail(decoded, toReport: id, in: db) }
    }

    /// Attaches a separate trail to a stored report still missing one, inside a transaction; returns whether it did.
    ///
    /// Takes the trail with its canonical JSON already written, so the writer's transaction does no encoding. The
    /// trail goes to a row of its own (`joinedTrail`), so the report row and its payload are not rewritten.
    /// - Throws: GRDB's `DatabaseError`.
    @discardableResult
    public static func attachTrail(_ decoded: DecodedTrail, toReport id: String, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO joinedTrail (id, steps, trail)
                SELECT id, ?, ? FROM report WHERE id = ? AND trailSource = 'missing'
                """
        ).execute(arguments: [decoded.trail.steps.count, String(decoding: decoded.canonicalJSON, as: UTF8.self), id])
        return db.changesCount > 0
    }

    /// Reports missing a trail that `trail` may belong to (same app and pid, launched within `tolerance` ms of
    /// `started`), closest launch first, inside a transaction.
    /// - Throws: GRDB's `DatabaseError`.
    public static func reportsAwaitingTrail(
        bundleID: String, pid: Int64, started: Int64, tolerance: Int64, in db: Database
    ) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id FROM report
                    WHERE \(Self.awaitsTrail) AND bundleID = ? AND pid = ? AND launchTime BETWEEN ? AND ?
                    ORDER BY ABS(launchTime - ?), id
                    """),
            arguments: [bundleID, pid, started - tolerance, started + tolerance, started])
    }

    /// Every row, by ID, for comparing two stores.
    /// - Throws: `StoreError` (`database`).
    public func allRecords() throws(StoreError) -> [ReportRecord] {
        try read { db in try ReportRecord.fetchAll(db, sql: "SELECT * FROM reportWithTrail ORDER BY id") }
    }
}
