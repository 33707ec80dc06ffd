import CrashtrailCore
import CrashtrailReports
import Foundation

/// Release health (SPEC section 20): sessions counted per project, release, environment and hour (`sessionCount`), and
/// the paths of sessions that did not crash (`pathVisit`), migration `v18: release health` (PostgreSQL `v15`).
///
/// The counts of a project are kept under its number; those counted from files by `ingest` before sessions were counted
/// per project under 0 (`.unassigned`), and read as the first project's.
extension ReportStore {
    /// The sessions of one release, summed over its environments and hours.
    package struct ReleaseSessions: Sendable, Hashable {
        package var release: String
        package var counts: SessionTally.Counts
    }

    /// How long, and how many, sessions the store remembers it counted, so an update sent again counts once (SPEC
    /// section 20): for a day after its last update, and up to 500,000 sessions a project, the oldest forgotten first.
    ///
    /// An SDK sends an update again when its answer was lost: seconds or minutes later, or at the app's next launch
    /// from its disk cache. A session forgotten (a day without updates, or pushed out by half a million newer ones of
    /// its project) and sent again would count again.
    package struct SessionMemory: Sendable, Hashable {
        /// How long a session is remembered after its last update, in milliseconds.
        package var window: Int64
        /// The most sessions of one project remembered.
        package var maximumPerProject: Int

        package init(window: Int64 = 86_400_000, maximumPerProject: Int = 500_000) {
            self.window = window
            self.maximumPerProject = maximumPerProject
        }
    }

    /// Adds `tally` to the session counts of `project` in the transaction `db`, counting once what an earlier tally
    /// counted of the same sessions (``SessionMemory``).
    ///
    /// Each bucket is read and written back under a row lock (PostgreSQL), in a fixed order, so services adding to one
    /// store at once neither lose a count nor deadlock; the user sketches merge register by register.
    /// - Parameters:
    ///   - tally: the counts of the sessions' updates.
    ///   - project: the project, or `.unassigned` (what `ingest` counts from files).
    ///   - now: the time, milliseconds since 1970, which a remembered session's age is measured from.
    ///   - memory: how long and how many sessions are remembered.
    ///   - db: the write transaction.
    /// - Throws: the backend's error.
    package static func addSessions(
        _ tally: SessionTally, project: ProjectScope, now: Int64, memory: SessionMemory = SessionMemory(), in db: any StoreTransaction
    ) throws {
        let scope = StoreValue(project)
        var tally = tally
        if !tally.sessions.isEmpty {
            // Those last seen before the window are forgotten first: sent again, they count again.
            try db.execute("DELETE FROM seenSession WHERE seen < ?", [.integer(now - memory.window)])
            tally.discount(seen: try seenSessions(Array(tally.sessions.keys), project: scope, in: db))
            try remember(tally.sessions, project: scope, now: now, memory: memory, in: db)
        }
        for (bucket, counts) in tally.buckets.sorted(by: { $0.key < $1.key }) {
            let key: [StoreValue] = [scope, .text(bucket.release), .text(bucket.environment), .integer(bucket.hour)]
            func stored() throws -> StoreRow? {
                try db.rows(
                    """
                    SELECT started, crashed, abnormal, errored, users, crashedUsers FROM sessionCount
                    WHERE project = ? AND release = ? AND environment = ? AND hour = ?\(db.dialect.lockingRead)
                    """, key
                ).first
            }
            var row = try stored()
            if row == nil {
                let inserted = try db.execute(
                    """
                    INSERT INTO sessionCount (project, release, environment, hour, started, crashed, abnormal, errored, users, crashedUsers)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project, release, environment, hour) DO NOTHING
                    """,
                    key + [
                        .integer(counts.started), .integer(counts.crashed), .integer(counts.abnormal), .integer(counts.errored),
                        .blob(Data(counts.users.serialized)), .blob(Data(counts.crashedUsers.serialized)),
                    ])
                if inserted > 0 { continue }
                // Another service inserted it meanwhile (PostgreSQL): add to its row, once its transaction is done.
                row = try stored()
            }
            guard let row else { throw StoreError(.database, "a session count row vanished while it was being added to") }
            let before = try Self.sessionCounts(row)
            var total = before
            total.add(counts)
            // Most sessions come from users already counted: a sketch that did not change is not written again.
            var assignments = ["started = ?", "crashed = ?", "abnormal = ?", "errored = ?"]
            var values: [StoreValue] = [
                .integer(total.started), .integer(total.crashed), .integer(total.abnormal), .integer(total.errored),
            ]
            if total.users != before.users {
                assignments.append("users = ?")
                values.append(.blob(Data(total.users.serialized)))
            }
            if total.crashedUsers != before.crashedUsers {
                assignments.append("crashedUsers = ?")
                values.append(.blob(Data(total.crashedUsers.serialized)))
            }
            try db.execute(
                """
                UPDATE sessionCount SET \(assignments.joined(separator: ", "))
                WHERE project = ? AND release = ? AND environment = ? AND hour = ?
                """, values + key)
        }
    }

    /// What the store remembers it counted of the sessions `sids` of project `scope`.
    private static func seenSessions(_ sids: [String], project scope: StoreValue, in db: any StoreTransaction) throws
        -> [String: SessionTally.SeenSession]
    {
        var seen: [String: SessionTally.SeenSession] = [:]
        for chunk in stride(from: 0, to: sids.count, by: 500).map({ Array(sids[$0..<min(sids.count, $0 + 500)]) }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try db.rows(
                "SELECT sid, started, ended FROM seenSession WHERE project = ? AND sid IN (\(marks))",
                [scope] + chunk.map(StoreValue.text))
            for row in rows {
                guard let sid = row.string("sid") else { continue }
                seen[sid] = SessionTally.SeenSession(started: row.int64("started") == 1, ended: row.int64("ended") == 1)
            }
        }
        return seen
    }

    /// Remembers what was counted of `sessions` at `now`, in one order, and forgets the project's oldest past its bound.
    private static func remember(
        _ sessions: [String: SessionTally.SessionUpdate], project scope: StoreValue, now: Int64, memory: SessionMemory,
        in db: any StoreTransaction
    ) throws {
        for (sid, update) in sessions.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                """
                INSERT INTO seenSession (project, sid, started, ended, seen) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (project, sid) DO UPDATE SET
                    started = CASE WHEN excluded.started = 1 THEN 1 ELSE seenSession.started END,
                    ended = CASE WHEN excluded.ended = 1 THEN 1 ELSE seenSession.ended END,
                    seen = excluded.seen
                """,
                [
                    scope, .text(sid), .integer(update.started ? 1 : 0), .integer(update.ending == nil ? 0 : 1),
                    .integer(now),
                ])
        }
        let remembered = try db.rows("SELECT count FROM seenSessionTotal WHERE project = ?", [scope]).first?.int64("count") ?? 0
        let over = remembered - Int64(memory.maximumPerProject)
        guard over > 0 else { return }
        try db.execute(
            """
            DELETE FROM seenSession WHERE project = ? AND sid IN (
                SELECT sid FROM seenSession WHERE project = ? ORDER BY seen, sid LIMIT ?)
            """, [scope, scope, .integer(over)])
    }

    /// Adds one session that did not crash, weighing `weight` sessions (1 / its sample rate), to the counts of the
    /// paths it visited, in the transaction `db`.
    /// - Throws: the backend's error.
    package static func addPathVisits(
        _ visits: PathVisits, release: String, weight: Double, project: ProjectScope, in db: any StoreTransaction
    ) throws {
        var batch = PathVisitBatch()
        batch.add(visits, release: release, weight: weight, project: project)
        try addPathVisits(batch, in: db)
    }

    /// The path visits of a batch of sessions, summed by row, to be written in one order.
    package struct PathVisitBatch: Sendable {
        struct Key: Hashable, Comparable {
            var project: Int64
            var release: String
            var screens: String
            var kind: Int64

            static func < (lhs: Key, rhs: Key) -> Bool {
                (lhs.project, lhs.release, lhs.screens) < (rhs.project, rhs.release, rhs.screens)
            }
        }
        var rows: [Key: (sessions: Double, squares: Double, trails: Int64)] = [:]

        package init() {}

        package var isEmpty: Bool { rows.isEmpty }

        /// Adds one session's visits, weighing `weight`, and the release's own row (kind 0, no screens).
        package mutating func add(_ visits: PathVisits, release: String, weight: Double, project: ProjectScope) {
            let scope = Int64(project.project?.rawValue ?? 0)
            for (kind, screens) in [(Int64(0), "")] + visits.paths.map({ (Int64($0.kind.length), $0.key) }) {
                let key = Key(project: scope, release: release, screens: screens, kind: kind)
                let before = rows[key] ?? (0, 0, 0)
                rows[key] = (before.sessions + weight, before.squares + weight * weight, before.trails + 1)
            }
        }
    }

    /// Adds `batch` in the transaction `db`, its rows in one order (project, release, screens), so services writing
    /// at once never take two rows in opposite orders.
    /// - Throws: the backend's error.
    package static func addPathVisits(_ batch: PathVisitBatch, in db: any StoreTransaction) throws {
        for (key, row) in batch.rows.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                """
                INSERT INTO pathVisit (project, release, kind, screens, sessions, squares, trails) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (project, release, screens) DO UPDATE
                SET sessions = pathVisit.sessions + excluded.sessions, squares = pathVisit.squares + excluded.squares,
                    trails = pathVisit.trails + excluded.trails
                """,
                [
                    .integer(key.project), .text(key.release), .integer(key.kind), .text(key.screens), .real(row.sessions),
                    .real(row.squares), .integer(row.trails),
                ])
        }
    }

    /// The sessions of each release of `project` (`.all`: every project's), from `sinceHour` on (hours since 1970),
    /// newest release name last.
    /// - Throws: `StoreError` (`database`), also for a sketch this build cannot read.
    package func releaseSessions(project: ProjectScope, release: String?, sinceHour: Int64?) throws(StoreError) -> [ReleaseSessions] {
        var conditions: [String] = []
        var arguments: [StoreValue] = []
        if let (condition, argument) = Self.countedFor(project) {
            conditions.append(condition)
            arguments.append(argument)
        }
        if let release {
            conditions.append("release = ?")
            arguments.append(.text(release))
        }
        if let sinceHour {
            conditions.append("hour >= ?")
            arguments.append(.integer(sinceHour))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try read { db in
            var byRelease: [String: SessionTally.Counts] = [:]
            try db.forEachRow(
                "SELECT release, started, crashed, abnormal, errored, users, crashedUsers FROM sessionCount \(filter)", arguments
            ) { row in
                byRelease[row.string("release") ?? "", default: SessionTally.Counts()].add(try Self.sessionCounts(row))
            }
            return byRelease.map { ReleaseSessions(release: $0.key, counts: $0.value) }.sorted { $0.release < $1.release }
        }
    }

    /// The counts of one `sessionCount` row.
    private static func sessionCounts(_ row: StoreRow) throws -> SessionTally.Counts {
        var counts = SessionTally.Counts()
        counts.started = row.int64("started") ?? 0
        counts.crashed = row.int64("crashed") ?? 0
        counts.abnormal = row.int64("abnormal") ?? 0
        counts.errored = row.int64("errored") ?? 0
        do {
            counts.users = try UserSketch(serialized: Array(row.data("users") ?? Data([1])))
            counts.crashedUsers = try UserSketch(serialized: Array(row.data("crashedUsers") ?? Data([1])))
        } catch {
            throw StoreError(.database, "a session count's user sketch cannot be read (\(error)); was it written by a later version?")
        }
        return counts
    }

    /// The paths of the sessions of `release` (nil: every release, summed) that did not crash, for `project` (`.all`:
    /// every project's), and the total of them.
    /// - Throws: `StoreError` (`database`).
    package func cleanPathVisits(project: ProjectScope, release: String?) throws(StoreError) -> PathRates {
        var arguments: [StoreValue] = []
        var condition = "1 = 1"
        if let release {
            condition += " AND release = ?"
            arguments.append(.text(release))
        }
        if let (counted, argument) = Self.countedFor(project) {
            condition += " AND " + counted
            arguments.append(argument)
        }
        return try read { db in
            var rates = PathRates()
            try db.forEachRow("SELECT kind, screens, sessions, squares, trails FROM pathVisit WHERE \(condition)", arguments) { row in
                let counts = PathRates.Counts(
                    cleanSessions: row["sessions"].real ?? 0, cleanSquares: row["squares"].real ?? 0,
                    sampledTrails: row.int64("trails") ?? 0, crashed: 0)
                if row.int64("kind") == 0 {
                    rates.total.add(counts)
                } else {
                    rates.paths[PathVisits.Path(key: row.string("screens") ?? ""), default: PathRates.Counts()].add(counts)
                }
            }
            return rates
        }
    }

    /// Whether any session or session trail is counted: whether the site has a health page.
    /// - Throws: `StoreError` (`database`).
    package func hasReleaseHealth() throws(StoreError) -> Bool {
        try read { db in
            try db.value("SELECT 1 FROM sessionCount LIMIT 1") != nil || db.value("SELECT 1 FROM pathVisit LIMIT 1") != nil
        }
    }

    /// The condition, with its one argument, that takes the counts of `scope`: none for every project's; a project's
    /// own, and for the first project also those counted from files before sessions were counted per project (kept
    /// unassigned), as the reports of that time are the first project's; the unassigned ones alone.
    static func countedFor(_ scope: ProjectScope) -> (condition: String, argument: StoreValue)? {
        switch scope {
        case .all: nil
        case .one(let project): (project == .first ? "project IN (0, ?)" : "project = ?", StoreValue(project))
        case .unassigned: ("project = ?", StoreValue(scope))
        }
    }

    /// The releases with paths counted for `project` (`.all`: every project's), by name.
    /// - Throws: `StoreError` (`database`).
    package func pathVisitReleases(project: ProjectScope) throws(StoreError) -> [String] {
        try read { db in
            if let (condition, argument) = Self.countedFor(project) {
                return try db.strings(
                    "SELECT DISTINCT release FROM pathVisit WHERE \(condition) AND kind = 0 ORDER BY release", [argument])
            }
            return try db.strings("SELECT DISTINCT release FROM pathVisit WHERE kind = 0 ORDER BY release")
        }
    }

    /// A crash report with a recorded trail (embedded or joined; inferred trails are not sessions the recorder saw).
    package struct CrashTrail: Sendable {
        package var id: String
        package var signature: String?
        package var trailJSON: String
    }

    /// Calls `body` with each crash report with a recorded trail (of `project` only, when given), from one cursor, in
    /// no promised order.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    package func forEachCrashTrail(
        signatures: Set<String>? = nil, project: ProjectScope = .all, _ body: (CrashTrail) throws -> Void
    ) throws(StoreError) {
        if project == .unassigned { return }
        let recorded = TrailInfo.Source.bound(TrailInfo.Source.withTrail.filter { $0 != .inferred })
        let inProject = project.project.map { " AND " + ReportFilter.projectCondition($0) } ?? ""
        let arguments = recorded.values + (project.project.map { [StoreValue($0)] } ?? [])
        try read { db in
            try db.forEachRow(
                "SELECT id, signature, trail FROM reportWithTrail WHERE trailSource IN \(recorded.sql)\(inProject)",
                arguments
            ) { row in
                guard let trail = row.string("trail"), let id = row.string("id") else { return }
                let signature = row.string("signature")
                if let signatures, !signatures.contains(signature ?? "") { return }
                try body(CrashTrail(id: id, signature: signature, trailJSON: trail))
            }
        }
    }
}
