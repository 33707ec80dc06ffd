import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB

/// The store of ingested crashes: reports, their trails, groups and manifests, over a ``StoreBackend`` (the embedded
/// SQLite file by default, or a shared PostgreSQL server).
///
/// Every query is written once, here and in its extensions;
/// the backends run them.
///
/// Tests give it a `DatabaseQueue()` (in memory); the CLI opens a file with ``open(path:willMigrate:)`` (a WAL `DatabasePool`) or
/// a PostgreSQL server through `CrashtrailPostgres`.
public final class ReportStore: Sendable {
    /// The database this store's queries run on.
    public let backend: any StoreBackend

    /// A store over an opened (and migrated) backend.
    public init(backend: any StoreBackend) {
        self.backend = backend
    }

    /// A store over a GRDB database, migrated to the current schema.
    /// - Throws: `StoreError` (`cannot-open`) when the schema is a newer crashtrail's or the migration fails.
    public convenience init(_ writer: any DatabaseWriter) throws(StoreError) {
        self.init(backend: try SQLiteBackend(writer))
    }

    /// Opens (creating if needed) the SQLite store file at `path` (``SQLiteBackend/open(path:willMigrate:)``).
    /// - Parameters:
    ///   - path: the store file.
    ///   - willMigrate: told the migrations about to run on an existing store, before they run.
    /// - Returns: the store, migrated.
    /// - Throws: `StoreError` (`cannot-open`) naming the path.
    public static func open(path: String, willMigrate: (@Sendable ([String]) -> Void)? = nil) throws(StoreError) -> ReportStore {
        ReportStore(backend: try SQLiteBackend.open(path: path, willMigrate: willMigrate))
    }

    /// Where the store is, for messages: a path, or a `postgres://` URL without its password.
    public var location: String { backend.location }

    /// The local files the store keeps, which an ingest must not read as inputs (``StoreBackend/localFiles``).
    public var localFiles: [String] { backend.localFiles }

    /// The dialect of the store's backend.
    public var dialect: StoreDialect { backend.dialect }

    /// What storing one payload did.
    public enum InsertOutcome: Hashable, Sendable {
        /// Stored under this ID (the payload's own, or `ID~hash` when that ID held other bytes).
        case stored(String)
        /// These bytes are already stored under this ID.
        case duplicate(String)
    }

    /// Stores `record` unless its bytes are already stored; a payload whose ID is taken by other bytes is kept
    /// under `ID~` plus the first 12 hex digits of its SHA-256 (SPEC section 8).
    ///
    /// The primary key decides, not a look-up before the insert: jobs storing the same report at the same moment
    /// store it once, the others see a duplicate.
    /// - Throws: the backend's error.
    public static func insert(_ record: ReportRecord, in db: any StoreTransaction) throws -> InsertOutcome {
        var values = record.storeValues
        if try db.execute(ReportRecord.insertSQL, values) > 0 { return .stored(record.id) }
        let existing = try db.value("SELECT sha256 FROM report WHERE id = ?", [.text(record.id)])?.text
        if existing == record.sha256 { return .duplicate(record.id) }
        let alternative = record.id + "~" + record.sha256.prefix(12)
        values[0] = .text(alternative)
        if try db.execute(ReportRecord.insertSQL, values) > 0 { return .stored(alternative) }
        return .duplicate(alternative)
    }

    /// Stores `records` as ``insert(_:in:)`` stores each, in multi-row statements where the backend gains from them.
    ///
    /// `StoreDialect.rowsPerInsert` says where: on PostgreSQL, one round trip for up to 256 reports instead of one
    /// each, which is what a worker's rate is made of. SQLite runs its prepared one-row statement for each.
    ///
    /// A report whose ID the statement did not insert (taken before, or twice in the batch) goes through
    /// ``insert(_:in:)`` after, which tells a duplicate from other bytes under the same ID.
    /// - Parameters:
    ///   - records: the reports, in order.
    ///   - idDecides: whether a taken ID means the same report sent again (a Sentry event's retry), counted as a
    ///     duplicate whatever its bytes, instead of other bytes kept under `ID~HASH`.
    ///   - rowsPerStatement: reports per statement; the backend's choice when nil.
    ///   - db: the write transaction.
    /// - Returns: each report's outcome, in order.
    /// - Throws: the backend's error.
    public static func insert(
        _ records: [ReportRecord], idDecides: Bool = false, rowsPerStatement: Int? = nil, in db: any StoreTransaction
    ) throws -> [InsertOutcome] {
        let rowsPerStatement = max(1, rowsPerStatement ?? db.dialect.rowsPerInsert)
        guard rowsPerStatement > 1 else { return try records.map { try insertAlone($0, idDecides: idDecides, in: db) } }
        var outcomes: [InsertOutcome] = []
        outcomes.reserveCapacity(records.count)
        var start = 0
        while start < records.count {
            let slice = records[start..<min(records.count, start + rowsPerStatement)]
            start = slice.endIndex
            // An ID holding U+0000 does not come back from PostgreSQL's RETURNING as it went in (U+2400 is kept in
            // its place): those go alone.
            let batched = slice.filter { !$0.id.holdsNUL }
            var inserted: Set<String> = []
            if !batched.isEmpty {
                let sql =
                    "INSERT INTO report (\(ReportColumn.list)) VALUES "
                    + Array(repeating: ReportRecord.valuesPlaceholders, count: batched.count).joined(separator: ", ")
                    + " ON CONFLICT (id) DO NOTHING RETURNING id"
                inserted = Set(try db.rows(sql, batched.flatMap(\.storeValues)).compactMap { $0.values.first?.text })
            }
            for record in slice {
                if record.id.holdsNUL {
                    outcomes.append(try insertAlone(record, idDecides: idDecides, in: db))
                } else if inserted.remove(record.id) != nil {
                    outcomes.append(.stored(record.id))
                } else {
                    // The statement found the ID taken: the same report again, or other bytes under its ID.
                    outcomes.append(idDecides ? .duplicate(record.id) : try insert(record, in: db))
                }
            }
        }
        return outcomes
    }

    /// One report in its own statement: ``insert(_:in:)``, or, when the ID decides, stored or a duplicate.
    private static func insertAlone(_ record: ReportRecord, idDecides: Bool, in db: any StoreTransaction) throws -> InsertOutcome {
        guard idDecides else { return try insert(record, in: db) }
        return try db.execute(ReportRecord.insertSQL, record.storeValues) > 0 ? .stored(record.id) : .duplicate(record.id)
    }

    /// The ID of a stored report whose payload has exactly these bytes (by SHA-256), if any.
    /// - Throws: `StoreError` (`database`).
    public func reportID(payloadDigest digest: String) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT id FROM report WHERE sha256 = ? LIMIT 1", [.text(digest)])?.text }
    }

    /// The first eight bytes of every stored payload digest (``digestPrefix(_:)``): a set that answers "certainly
    /// not stored" for a new payload without a read transaction.
    /// - Throws: `StoreError` (`database`).
    public func storedDigestPrefixes() throws(StoreError) -> Set<UInt64> {
        try read { db in
            var prefixes = Set<UInt64>()
            try db.forEachRow("SELECT sha256 FROM report", []) { row in
                if let digest = row[0].text, let prefix = Self.digestPrefix(digest) { prefixes.insert(prefix) }
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

    /// When a `report` row still awaits a recorded trail: stored without one (or with one inferred from breadcrumbs),
    /// and none joined since (`joinedTrail`).
    private static let awaitsTrail =
        "trailSource IN ('missing', 'inferred') AND NOT EXISTS (SELECT 1 FROM joinedTrail WHERE joinedTrail.id = report.id)"

    /// Candidates for joining separate trails: reports missing a trail that have a bundle ID, pid and launch time.
    /// - Throws: `StoreError` (`database`).
    public func countReportsAwaitingTrail() throws(StoreError) -> Int {
        try read { db in
            try db.value(
                """
                SELECT COUNT(*) FROM report
                WHERE \(Self.awaitsTrail) AND bundleID IS NOT NULL AND pid IS NOT NULL AND launchTime IS NOT NULL
                """
            )?.integer.map(Int.init) ?? 0
        }
    }

    /// Runs `updates` in one write transaction.
    ///
    /// The backend may run it again after a failure it recovers from (``StoreBackend/write(_:)``), so `updates` must
    /// start from the same state each time.
    /// - Throws: `StoreError`: the backend's, or `database` wrapping the failure.
    @discardableResult
    public func write<T>(_ updates: (any StoreTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try backend.write(updates)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "writing to the crash store \(location) failed: \(error)")
        }
    }

    /// Folds the backend's pieces of counts (``StoreBackend/compact()``); jobs that wrote many transactions call it at
    /// their end.
    public func compact() {
        backend.compact()
    }

    /// Runs `query` in one read transaction.
    /// - Throws: `StoreError`: the backend's, or `database` wrapping the failure.
    public func read<T>(_ query: (any StoreTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try backend.read(query)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "reading the crash store \(location) failed: \(error)")
        }
    }

    /// The report stored under exactly `id`.
    /// - Throws: `StoreError` (`database`).
    public func record(id: String) throws(StoreError) -> ReportRecord? {
        try read { db in try db.rows("SELECT * FROM reportWithTrail WHERE id = ?", [.text(id)]).first.map(ReportRecord.init(row:)) }
    }

    /// The report whose ID is `prefix` or the only one starting with it (letters compared without case, so a
    /// UUID prefix may be typed in lower case).
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidates.
    public func record(matchingPrefix prefix: String) throws(StoreError) -> ReportRecord {
        guard !prefix.isEmpty else {
            throw StoreError(.notFound, "give a report ID or a prefix of one; `crashtrail list --reports` lists them")
        }
        if let exact = try record(id: prefix) { return exact }
        let candidates = try read { db in try Self.ids(startingWith: prefix, in: db) }
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

    /// The IDs that start with `prefix`, ASCII letters compared without case, in ID order: at most 21, so a caller can
    /// tell "more than 20".
    ///
    /// They are found by walking the primary key's index one character of `prefix` at a time, keeping each spelling
    /// of the prefix so far (a letter in either case) that begins some ID: each step reads the first ID at or after a
    /// spelling, and IDs that begin with it follow it in the index. A prefix thus costs a few index reads at any
    /// store size, where a case-insensitive `LIKE` reads every ID. Past 64 spellings alive at once (IDs spelled
    /// every which way), the `LIKE` reads them instead.
    package static func ids(startingWith prefix: String, in db: any StoreTransaction) throws -> [String] {
        /// The first ID at or after `spelling`, when it begins with `spelling` (byte by byte, the index's order).
        func firstID(from spelling: String) throws -> String? {
            let first = try db.strings(idsFromSQL(limit: 1), [.text(spelling)]).first
            return first.flatMap { $0.utf8.starts(with: spelling.utf8) ? $0 : nil }
        }
        var spellings = [""]
        for character in prefix {
            let variants =
                character.isASCII && character.isLetter
                ? [String(character).uppercased(), String(character).lowercased()] : [String(character)]
            var alive: [String] = []
            for spelling in spellings {
                for variant in variants where try firstID(from: spelling + variant) != nil { alive.append(spelling + variant) }
            }
            guard !alive.isEmpty else { return [] }
            guard alive.count <= 64 else { return try idsLike(prefix, in: db) }
            spellings = alive
        }
        var ids: [String] = []
        for spelling in spellings {
            for id in try db.strings(idsFromSQL(limit: 21), [.text(spelling)]) {
                guard id.utf8.starts(with: spelling.utf8) else { break }
                ids.append(id)
            }
        }
        return Array(ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(21))
    }

    /// The SQL of the first `limit` IDs at or after a text, in the index's order; `QueryPlanTests` pins its plan.
    package static func idsFromSQL(limit: Int) -> String { "SELECT id FROM report WHERE id >= ? ORDER BY id LIMIT \(limit)" }

    /// The IDs that start with `prefix`, letters compared without case, by a case-insensitive `LIKE` that reads every
    /// ID: at most 21, in ID order.
    package static func idsLike(_ prefix: String, in db: any StoreTransaction) throws -> [String] {
        let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try db.strings(
            "SELECT id FROM report WHERE id \(db.dialect.caseInsensitiveLike) ? ESCAPE '\\' ORDER BY id LIMIT 21",
            [.text(escaped + "%")]
        ).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// The reports `filter` takes (every report by default), newest first, then by ID (SPEC section 8), without
    /// payloads; the first `limit` of them when given.
    ///
    /// With no filter, or only a group's signature, the store reads an index in this order (`report_recent`,
    /// `report_group_recent`), so the first `limit` cost the same at any store size.
    /// - Throws: `StoreError` (`database`).
    public func reports(_ filter: ReportFilter = .all, limit: Int? = nil) throws(StoreError) -> [CrashReport] {
        let listing = Self.listing(filter, limit: limit, dialect)
        return try read { db in try db.rows(listing.sql, listing.arguments) }.map { row throws(StoreError) in
            try ReportRecord(row: row).report
        }
    }

    /// The SQL of a listing of reports, newest first (``reports(_:limit:)``), and its arguments; `QueryPlanTests` pins
    /// its plan.
    package static func listing(_ filter: ReportFilter, limit: Int?, _ dialect: StoreDialect) -> (sql: String, arguments: [StoreValue]) {
        let (condition, arguments) = filter.sql(dialect)
        let sql = """
            SELECT \(ReportColumn.listing(trail: false, dialect))
            FROM reportWithTrail WHERE \(condition)
            ORDER BY time IS NULL, time DESC, id\(limit == nil ? "" : " LIMIT ?")
            """
        return (sql, arguments + (limit.map { [.integer(Int64(max(0, $0)))] } ?? []))
    }

    /// Calls `body` with each report `filter` takes, newest first, then by ID, with its stored trail JSON and without
    /// its payload, one at a time from a cursor: memory stays bounded however many reports there are.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachReport(_ filter: ReportFilter = .all, _ body: (CrashReport, _ trailJSON: String?) throws -> Void) throws(StoreError)
    {
        try forEachRecord(filter) { record in try body(record.report, record.trail) }
    }

    /// Calls `body` with each stored row `filter` takes, as ``forEachReport(_:_:)`` orders and reads them, with what
    /// the row keeps beyond the report: its stored screen path and trail dictionary.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachRecord(_ filter: ReportFilter = .all, _ body: (ReportRecord) throws -> Void) throws(StoreError) {
        let (condition, arguments) = filter.sql(dialect)
        try read { db in
            try db.forEachRow(
                """
                SELECT \(ReportColumn.listing(trail: true, db.dialect))
                FROM reportWithTrail WHERE \(condition)
                ORDER BY time IS NULL, time DESC, id
                """, arguments
            ) { row in try body(try ReportRecord(row: row)) }
        }
    }

    /// The crash groups of the reports `filter` takes (every report by default): by count, then last seen (newest
    /// first), then signature (SPEC section 8).
    ///
    /// Every group, or one group by its signature, is read from the counts kept as reports arrive (`keptGroups(signature:)`);
    /// other filters count the reports they take.
    /// - Throws: `StoreError` (`database`).
    public func groups(_ filter: ReportFilter = .all) throws(StoreError) -> [CrashGroup] {
        var others = filter
        others.signature = nil
        guard others == .all else { return try countedGroups(filter) }
        return try keptGroups(signature: filter.signature)
    }

    /// The groups (every one, or the one with `signature`) from the count tables.
    ///
    /// Each group's first and last time are read from the two ends of its range of `report_group_recent`, so the cost
    /// follows the number of groups, not of reports. `QueryPlanTests` pins the plans.
    /// - Throws: `StoreError` (`database`).
    func keptGroups(signature: String?) throws(StoreError) -> [CrashGroup] {
        let arguments: [StoreValue] = signature.map { [.text($0)] } ?? []
        return try read { db in
            var versions: [String: [String]] = [:]
            for row in try db.rows(Self.keptVersionsSQL(signature: signature), arguments) {
                versions[try row.requiredString("signature"), default: []].append(try row.requiredString("version"))
            }
            return Self.ordered(
                try db.rows(Self.keptGroupsSQL(signature: signature, db.dialect), arguments).map { row in
                    try Self.group(row, versions: versions[try row.requiredString("signature")] ?? [])
                })
        }
    }

    /// The SQL of `keptGroups(signature:)`'s groups, and of their first and last times.
    package static func keptGroupsSQL(signature: String?, _ dialect: StoreDialect) -> String {
        """
        SELECT c.signature, c.reports, c.withTrail, c.inferred,
            (SELECT time FROM report WHERE signature = c.signature AND \(dialect.knownTime) ORDER BY time LIMIT 1) AS firstSeen,
            (SELECT time FROM report WHERE signature = c.signature AND \(dialect.knownTime) ORDER BY time DESC LIMIT 1) AS lastSeen
        FROM (
            SELECT signature, CAST(SUM(reports) AS BIGINT) AS reports, CAST(SUM(withTrail) AS BIGINT) AS withTrail,
                CAST(SUM(inferred) AS BIGINT) AS inferred
            FROM groupCount \(signature == nil ? "" : "WHERE signature = ?") GROUP BY signature HAVING SUM(reports) > 0
        ) c
        """
    }

    /// The SQL of `keptGroups(signature:)`'s app versions.
    package static func keptVersionsSQL(signature: String?) -> String {
        """
        SELECT signature, version FROM groupVersionCount WHERE known = 1 \(signature == nil ? "" : "AND signature = ?")
        GROUP BY signature, version HAVING SUM(reports) > 0
        """
    }

    /// The groups of the reports `filter` takes, counted from those reports.
    /// - Throws: `StoreError` (`database`).
    func countedGroups(_ filter: ReportFilter) throws(StoreError) -> [CrashGroup] {
        let (condition, arguments) = filter.sql(dialect)
        return try read { db in
            let rows = try db.rows(
                """
                SELECT signature, COUNT(*) AS reports, MIN(time) AS firstSeen, MAX(time) AS lastSeen,
                    SUM(CASE WHEN trailSource IN ('embedded', 'joined', 'inferred') THEN 1 ELSE 0 END) AS withTrail,
                    SUM(CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END) AS inferred
                FROM reportWithTrail WHERE \(condition) GROUP BY signature
                """, arguments)
            var groups: [CrashGroup] = []
            for row in rows {
                let signature = try row.requiredString("signature")
                var versionFilter = filter
                versionFilter.signature = signature
                let (versionCondition, versionArguments) = versionFilter.sql(db.dialect)
                let versions = try db.strings(
                    "SELECT DISTINCT appVersion FROM reportWithTrail WHERE \(versionCondition) AND appVersion IS NOT NULL",
                    versionArguments)
                groups.append(try Self.group(row, versions: versions))
            }
            return Self.ordered(groups)
        }
    }

    /// A group from a row of `signature`, `reports`, `firstSeen`, `lastSeen`, `withTrail` and `inferred`, with its app
    /// versions in any order.
    private static func group(_ row: StoreRow, versions: [String]) throws -> CrashGroup {
        CrashGroup(
            signature: try row.requiredString("signature"), count: row.int("reports") ?? 0, firstSeen: row.string("firstSeen"),
            lastSeen: row.string("lastSeen"), versions: versions.sorted(by: CanonicalJSON.codePointPrecedes),
            withTrail: row.int("withTrail") ?? 0, inferred: row.int("inferred") ?? 0)
    }

    /// Groups in list order: by count, then last seen (newest first), then signature.
    private static func ordered(_ groups: [CrashGroup]) -> [CrashGroup] {
        groups.sorted { lhs, rhs in
            if lhs.count != rhs.count { return lhs.count > rhs.count }
            if lhs.lastSeen != rhs.lastSeen { return (lhs.lastSeen ?? "") > (rhs.lastSeen ?? "") }
            return CanonicalJSON.codePointPrecedes(lhs.signature, rhs.signature)
        }
    }

    /// Reports still missing a trail that a trail from this app, pid and session start could belong to: launched
    /// within `tolerance` milliseconds of `started`.
    /// - Throws: `StoreError` (`database`).
    public func reportsAwaitingTrail(bundleID: String, pid: Int64, started: Int64, tolerance: Int64 = 2000) throws(StoreError) -> [String] {
        try read { db in try Self.reportsAwaitingTrail(bundleID: bundleID, pid: pid, started: started, tolerance: tolerance, in: db) }
    }

    /// Attaches a trail that arrived separately to a stored report.
    /// - Parameters:
    ///   - trail: the recorded trail.
    ///   - id: the report's ID.
    ///   - crashScreen: the screen on top at the crash by the trail, which names the group of a crash without frames.
    ///   - screenPath: the trail's last screens as the app's manifest replays them, when a manifest is known.
    /// - Throws: `StoreError` (`database`).
    public func attachTrail(
        _ trail: Trail, toReport id: String, crashScreen: String? = nil, screenPath: StoredScreenPath? = nil
    ) throws(StoreError) {
        let decoded = DecodedTrail(trail)
        _ = try write { db in try Self.attachTrail(decoded, toReport: id, crashScreen: crashScreen, screenPath: screenPath, in: db) }
    }

    /// Attaches a separate trail (and the dictionary ID it was decoded with, if any) to a stored report still missing
    /// a recorded one, inside a transaction; returns whether it did.
    ///
    /// Takes the trail with its canonical JSON already written, so the writer's transaction does no encoding. The
    /// trail goes to a row of its own (`joinedTrail`), so the report row and its payload are not rewritten; its
    /// primary key makes a second join of the same report, by this job or another, change nothing. A recorded trail
    /// wins over one inferred from breadcrumbs (SPEC section 15): it is laid over it the same way. A crash without
    /// frames moves to the group of `crashScreen`, the screen on top at the crash by this trail (its signature is the
    /// one column of the report row rewritten, and only for such crashes).
    /// - Parameters:
    ///   - decoded: the trail, its canonical JSON written.
    ///   - id: the report.
    ///   - crashScreen: the screen on top at the crash by the trail.
    ///   - screenPath: the trail's last screens as the app's manifest replays them.
    ///   - db: the write transaction.
    /// - Returns: whether the trail was attached.
    /// - Throws: the backend's error.
    @discardableResult
    public static func attachTrail(
        _ decoded: DecodedTrail, toReport id: String, crashScreen: String? = nil, screenPath: StoredScreenPath? = nil,
        in db: any StoreTransaction
    ) throws -> Bool {
        try insertJoinedTrail(
            decoded, from: "SELECT id, ?, ?, ?, ?, ? FROM report WHERE id = ? AND trailSource IN ('missing', 'inferred')", [.text(id)],
            crashScreen: crashScreen, screenPath: screenPath, in: db) != nil
    }

    /// Inserts `decoded` into `joinedTrail` for the report `select` chooses (its columns: the report's ID, then five
    /// placeholders for ``joinedTrailValues(_:screenPath:)``, then `arguments`), unless that report has one, and moves
    /// the report when it is a crash without frames; returns its ID, or nil when nothing was inserted.
    ///
    /// The insert returns the report's signature too: one statement, which on PostgreSQL is one round trip.
    private static func insertJoinedTrail(
        _ decoded: DecodedTrail, from select: String, _ arguments: [StoreValue], crashScreen: String?,
        screenPath: StoredScreenPath?, in db: any StoreTransaction
    ) throws -> String? {
        let rows = try db.rows(
            """
            INSERT INTO joinedTrail (id, steps, trail, dictionary, screenPath, pathManifest)
            \(select)
            ON CONFLICT (id) DO NOTHING
            RETURNING id, (SELECT signature FROM report WHERE report.id = joinedTrail.id) AS signature
            """, joinedTrailValues(decoded, screenPath: screenPath) + arguments)
        guard let row = rows.first, let id = row.string("id") else { return nil }
        if let signature = row.string("signature") { try moveIfStackless(id, signature: signature, crashScreen: crashScreen, in: db) }
        return id
    }

    /// The values of a `joinedTrail` row after its ID: steps, trail, dictionary, screen path and its manifest.
    private static func joinedTrailValues(_ decoded: DecodedTrail, screenPath: StoredScreenPath?) -> [StoreValue] {
        [
            .integer(Int64(decoded.trail.steps.count)), .text(String(decoding: decoded.canonicalJSON, as: UTF8.self)),
            StoreValue(decoded.dictionaryID), StoreValue(screenPath?.screensJSON), StoreValue(screenPath?.manifest),
        ]
    }

    /// Moves a crash without frames, whose trail was just joined, to the group of the screen at the crash.
    private static func moveIfStackless(_ id: String, signature: String, crashScreen: String?, in db: any StoreTransaction) throws {
        let renamed = StacklessSignature.renamed(signature, crashScreen: crashScreen)
        if renamed != signature { try db.execute("UPDATE report SET signature = ? WHERE id = ?", [.text(renamed), .text(id)]) }
    }

    /// Reports missing a trail that `trail` may belong to (same app and pid, launched within `tolerance` ms of
    /// `started`), closest launch first, inside a transaction.
    /// - Throws: the backend's error.
    public static func reportsAwaitingTrail(
        bundleID: String, pid: Int64, started: Int64, tolerance: Int64, in db: any StoreTransaction
    ) throws -> [String] {
        try db.strings(
            awaitingTrailSQL(columns: "id", limit: nil),
            awaitingTrailArguments(bundleID: bundleID, pid: pid, started: started, tolerance: tolerance))
    }

    /// Attaches a separate trail to the report ``reportsAwaitingTrail(bundleID:pid:started:tolerance:in:)`` finds
    /// first, as ``attachTrail(_:toReport:crashScreen:screenPath:in:)`` does, inside a transaction; returns
    /// its ID, or nil when no report awaits the trail.
    ///
    /// The closest report is chosen, the trail attached and the report's signature read in one statement (a round
    /// trip on PostgreSQL, which a join of many trail files is made of); a crash without frames then moves to the
    /// group of `crashScreen`.
    /// - Throws: the backend's error.
    public static func joinClosestReport(
        _ decoded: DecodedTrail, bundleID: String, pid: Int64, started: Int64, tolerance: Int64, crashScreen: String? = nil,
        screenPath: StoredScreenPath? = nil, in db: any StoreTransaction
    ) throws -> String? {
        try insertJoinedTrail(
            decoded, from: awaitingTrailSQL(columns: "id, ?, ?, ?, ?, ?", limit: 1),
            awaitingTrailArguments(bundleID: bundleID, pid: pid, started: started, tolerance: tolerance),
            crashScreen: crashScreen, screenPath: screenPath, in: db)
    }

    private static func awaitingTrailSQL(columns: String, limit: Int?) -> String {
        """
        SELECT \(columns) FROM report
        WHERE \(Self.awaitsTrail) AND bundleID = ? AND pid = ? AND launchTime BETWEEN ? AND ?
        ORDER BY ABS(launchTime - ?), id\(limit.map { " LIMIT \($0)" } ?? "")
        """
    }

    private static func awaitingTrailArguments(bundleID: String, pid: Int64, started: Int64, tolerance: Int64) -> [StoreValue] {
        [.text(bundleID), .integer(pid), .integer(started - tolerance), .integer(started + tolerance), .integer(started)]
    }

    /// The report that already has exactly this trail joined (same app and pid, launched within `tolerance` ms of
    /// `started`), so a trail sent again joins nothing new and is answered with its report.
    /// - Throws: the backend's error.
    public static func reportJoined(
        to decoded: DecodedTrail, started: Int64, tolerance: Int64, in db: any StoreTransaction
    ) throws -> String? {
        try db.strings(
            """
            SELECT report.id FROM report JOIN joinedTrail ON joinedTrail.id = report.id
            WHERE report.bundleID = ? AND report.pid = ? AND report.launchTime BETWEEN ? AND ? AND joinedTrail.trail = ?
            ORDER BY report.id LIMIT 1
            """,
            [
                .text(decoded.trail.app.bundleID), .integer(decoded.trail.session.pid), .integer(started - tolerance),
                .integer(started + tolerance), .text(String(decoding: decoded.canonicalJSON, as: UTF8.self)),
            ]
        ).first
    }

    /// Every row, by ID, for comparing two stores.
    /// - Throws: `StoreError` (`database`).
    public func allRecords() throws(StoreError) -> [ReportRecord] {
        try read { db in try db.rows("SELECT * FROM reportWithTrail ORDER BY id", []).map(ReportRecord.init(row:)) }
    }
}
