import CrashtrailCore
import CrashtrailReports
import Crypto
import Foundation

/// Trails joined by session, and trails that arrive before their crash (SPEC section 18): a trail no stored crash
/// awaits is kept in `waitingTrail`, bounded in number, bytes and age, and joined in the transaction that stores its
/// crash.
extension ReportStore {
    /// A separate trail kept until its crash comes: the values its `joinedTrail` row will take, and what finds it.
    package struct WaitingTrail: Sendable, Hashable {
        package var bundleID: String
        /// The recorder's session ID (`session.id`).
        package var session: String
        package var pid: Int64
        /// The session's start, in milliseconds since 1970.
        package var started: Int64
        package var steps: Int
        /// The trail's canonical JSON.
        package var trail: String
        /// The dictionary ID it was decoded with, if any.
        package var dictionary: String?
        package var screenPath: StoredScreenPath?
        /// The screen on top at the crash by the trail, which names the group of a crash without frames.
        package var crashScreen: String?
        /// The project the trail was sent to: it joins only that project's crashes.
        package var project: ProjectID

        package init(
            bundleID: String, session: String, pid: Int64, started: Int64, steps: Int, trail: String, dictionary: String?,
            screenPath: StoredScreenPath?, crashScreen: String?, project: ProjectID = .first
        ) {
            self.project = project
            self.bundleID = bundleID
            self.session = session
            self.pid = pid
            self.started = started
            self.steps = steps
            self.trail = trail
            self.dictionary = dictionary
            self.screenPath = screenPath
            self.crashScreen = crashScreen
        }

        /// Its size as the bound counts it: the bytes of its canonical JSON.
        var size: Int64 { Int64(trail.utf8.count) }

        /// The SHA-256 of its canonical JSON, which its `joinedTrail` row keeps (``ReportStore/trailDigest(_:)``).
        var digest: Data { ReportStore.trailDigest(Array(trail.utf8)) }
    }

    /// The digest a joined trail is found by when it is sent again: the SHA-256 of its canonical JSON.
    package static func trailDigest(_ canonicalJSON: [UInt8]) -> Data {
        Data(SHA256.hash(data: canonicalJSON))
    }

    /// How many trails may wait for their crashes, and for how long (SPEC section 18); the counts hold for each
    /// project (SPEC section 19).
    package struct WaitingTrailLimits: Sendable, Hashable {
        /// The most trails of one project kept waiting.
        package var maximumCount: Int
        /// The most bytes of one project's trails (canonical JSON) kept waiting.
        package var maximumBytes: Int64
        /// How long a trail waits for its crash, in milliseconds; an older one is dropped.
        package var maximumAge: Int64

        /// 10,000 trails, 256 MiB and 7 days by default.
        package init(maximumCount: Int = 10_000, maximumBytes: Int64 = 256 << 20, maximumAge: Int64 = 7 * 86_400_000) {
            self.maximumCount = maximumCount
            self.maximumBytes = maximumBytes
            self.maximumAge = maximumAge
        }
    }

    /// What became of a trail offered to wait.
    package enum WaitOutcome: Sendable, Hashable {
        /// It waits (or the same session's trail already waited and was replaced when this one is as long or longer).
        case waiting
        /// The waiting trails are at their bound; this one was not kept.
        case full(count: Int, bytes: Int64)
    }

    /// How many trails wait, their bytes, and when the oldest came (milliseconds since 1970).
    package struct WaitingTrailStatus: Sendable, Hashable {
        package var count: Int
        package var bytes: Int64
        package var oldestReceived: Int64?
    }

    /// Records the session a stored report carries, inside a transaction.
    /// - Throws: the backend's error.
    package static func insertSession(of id: String, bundleID: String, session: String, in db: any StoreTransaction) throws {
        try db.execute(
            "INSERT INTO reportSession (id, bundleID, session) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
            [.text(id), .text(bundleID), .text(session)])
    }

    /// Replaces the session recorded for report `id` (reprocessing), inside a transaction.
    /// - Throws: the backend's error.
    package static func replaceSession(of id: String, bundleID: String?, session: String?, in db: any StoreTransaction) throws {
        try db.execute("DELETE FROM reportSession WHERE id = ?", [.text(id)])
        if let bundleID, let session { try insertSession(of: id, bundleID: bundleID, session: session, in: db) }
    }

    /// Keeps `trail` until its crash comes, inside a transaction: trails older than `limits.maximumAge` go first; a
    /// trail of a session already waiting replaces it when it has as many steps or more (a journal uploaded again
    /// after more steps); otherwise it is kept when the bound allows.
    /// - Parameters:
    ///   - trail: the trail no stored crash awaited.
    ///   - limits: the bound.
    ///   - now: the time, milliseconds since 1970.
    ///   - db: the write transaction.
    /// - Returns: whether it waits.
    /// - Throws: the backend's error.
    package static func keepWaiting(
        _ trail: WaitingTrail, limits: WaitingTrailLimits, now: Int64, in db: any StoreTransaction
    ) throws -> WaitOutcome {
        try db.execute("DELETE FROM waitingTrail WHERE received < ?", [.integer(now - limits.maximumAge)])
        let project = StoreValue(trail.project)
        let sameSession = try db.rows(
            "SELECT size FROM waitingTrail WHERE project = ? AND bundleID = ? AND session = ?",
            [project, .text(trail.bundleID), .text(trail.session)]
        ).first
        // The limits hold for each project: one project's trails never keep another's from waiting (SPEC section 19).
        // The project's row of totals, which triggers keep as trails come and go: not a read of every waiting trail.
        let totals = try db.rows("SELECT count, bytes FROM waitingTrailTotal WHERE project = ?", [project]).first
        let count = Int(totals?.int64("count") ?? 0)
        let bytes = totals?.int64("bytes") ?? 0
        if let replaced = sameSession {
            // A longer trail of a waiting session replaces it: the bytes bound holds for what it adds.
            guard bytes - (replaced.int64("size") ?? 0) + trail.size <= limits.maximumBytes else {
                return .full(count: count, bytes: bytes)
            }
        } else {
            guard count < limits.maximumCount, bytes + trail.size <= limits.maximumBytes else {
                return .full(count: count, bytes: bytes)
            }
        }
        try db.execute(
            """
            INSERT INTO waitingTrail
                (bundleID, session, pid, started, received, size, steps, trail, dictionary, screenPath, pathManifest, crashScreen,
                project, digest)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project, bundleID, session) DO UPDATE SET
                pid = excluded.pid, started = excluded.started, received = excluded.received, size = excluded.size,
                steps = excluded.steps, trail = excluded.trail, dictionary = excluded.dictionary,
                screenPath = excluded.screenPath, pathManifest = excluded.pathManifest, crashScreen = excluded.crashScreen,
                digest = excluded.digest
            WHERE excluded.steps >= waitingTrail.steps
            """,
            [
                .text(trail.bundleID), .text(trail.session), .integer(trail.pid), .integer(trail.started), .integer(now),
                .integer(trail.size), .integer(Int64(trail.steps)), .text(trail.trail), StoreValue(trail.dictionary),
                StoreValue(trail.screenPath?.screensJSON), StoreValue(trail.screenPath?.manifest), StoreValue(trail.crashScreen),
                project, .blob(trail.digest),
            ])
        return .waiting
    }

    /// Joins the waiting trails that belong to reports just stored, inside the transaction that stored them.
    ///
    /// A report that carries a session joins that session's trail; one that carries none, the trail of its app and
    /// pid started within `tolerance` milliseconds of its launch. A joined trail stops waiting.
    /// - Parameters:
    ///   - records: the reports stored, with their IDs.
    ///   - tolerance: how far a crash's launch time may be from `session.started`, in milliseconds.
    ///   - db: the write transaction.
    /// - Returns: the IDs of the reports that got a trail.
    /// - Throws: the backend's error.
    package static func joinWaitingTrails(
        to records: [(id: String, record: ReportRecord)], tolerance: Int64, in db: any StoreTransaction
    ) throws -> [String] {
        let candidates = records.filter { item in
            item.record.bundleID != nil && TrailInfo.Source.awaitingRecorded.contains(item.record.trailSource)
                && (item.record.sessionID != nil || (item.record.pid != nil && item.record.launchTime != nil))
        }
        guard !candidates.isEmpty, try !db.rows("SELECT 1 AS one FROM waitingTrail LIMIT 1", []).isEmpty else { return [] }
        var joined: [String] = []
        for (id, record) in candidates {
            guard let bundleID = record.bundleID,
                let waiting = try waitingTrail(for: record, bundleID: bundleID, tolerance: tolerance, in: db)
            else { continue }
            guard
                try attachWaiting(
                    project: record.project, bundleID: bundleID, session: waiting.session, crashScreen: waiting.crashScreen,
                    toReport: id, signature: record.signature, in: db)
            else { continue }
            joined.append(id)
        }
        return joined
    }

    /// Moves the waiting trail of `session` onto report `id`, inside a transaction; returns whether it did.
    ///
    /// The trail becomes the report's `joinedTrail` row, a crash without frames moves to its crash screen's group,
    /// and the trail stops waiting.
    private static func attachWaiting(
        project: ProjectID, bundleID: String, session: String, crashScreen: String?, toReport id: String, signature: String,
        in db: any StoreTransaction
    ) throws -> Bool {
        let key: [StoreValue] = [StoreValue(project), .text(bundleID), .text(session)]
        let inserted = try db.rows(
            """
            INSERT INTO joinedTrail (id, steps, trail, dictionary, screenPath, pathManifest, digest)
            SELECT ?, steps, trail, dictionary, screenPath, pathManifest, digest FROM waitingTrail
            WHERE project = ? AND bundleID = ? AND session = ?
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """, [.text(id)] + key)
        guard !inserted.isEmpty else { return false }
        try db.execute("DELETE FROM waitingTrail WHERE project = ? AND bundleID = ? AND session = ?", key)
        try moveIfStackless(id, signature: signature, crashScreen: crashScreen, in: db)
        return true
    }

    /// The waiting trail of `record`'s session, or (for a report carrying no session) the one of its app and pid
    /// started closest to its launch within `tolerance`.
    private static func waitingTrail(
        for record: ReportRecord, bundleID: String, tolerance: Int64, in db: any StoreTransaction
    ) throws -> (session: String, crashScreen: String?)? {
        let rows: [StoreRow]
        let project = StoreValue(record.project)
        if let session = record.sessionID {
            rows = try db.rows(
                "SELECT session, crashScreen FROM waitingTrail WHERE project = ? AND bundleID = ? AND session = ?",
                [project, .text(bundleID), .text(session)])
        } else if let pid = record.pid, let launch = record.launchTime {
            rows = try db.rows(
                """
                SELECT session, crashScreen FROM waitingTrail
                WHERE project = ? AND bundleID = ? AND pid = ? AND started BETWEEN ? AND ?
                ORDER BY ABS(started - ?), session LIMIT 1
                """,
                [project, .text(bundleID), .integer(pid), .integer(launch - tolerance), .integer(launch + tolerance), .integer(launch)])
        } else {
            return nil
        }
        guard let row = rows.first, let session = row.string("session") else { return nil }
        return (session, row.string("crashScreen"))
    }

    /// Joins waiting trails to the stored reports that await them, and returns those reports' IDs.
    ///
    /// A trail and its crash committed at the same instant by two workers of one shared store do not see each other:
    /// the trail waits though its crash is stored. `serve` sweeps every trail at its start, then those received since
    /// the sweep before, every minute; `ingest` sweeps those received during its run. So such a trail is joined all
    /// the same, and a sweep reads only the trails that arrived in the window of that race. Each report is chosen as
    /// a trail file would choose it: the one carrying the session, else one of the app and pid launched within
    /// `tolerance` ms carrying no other.
    ///
    /// The trails and their reports are looked up in a read, which does not hold the store's single writer; only the
    /// joins found take a write, which joins a trail only if it still waits and its report has no trail yet. So a sweep
    /// over 10,000 waiting trails at `serve`'s start does not hold back the requests that come meanwhile.
    /// - Parameters:
    ///   - tolerance: how far a crash's launch time may be from `session.started`, in milliseconds.
    ///   - since: only trails received at or after this time, milliseconds since 1970 (0 for all).
    ///   - limit: the most waiting trails looked at.
    /// - Returns: the IDs of the reports that got their trail.
    /// - Throws: `StoreError` (`database`).
    @discardableResult
    package func sweepWaitingTrails(tolerance: Int64, since: Int64 = 0, limit: Int = 10_000) throws(StoreError) -> [String] {
        let found = try read { db in
            let waiting = try db.rows(
                """
                SELECT project, bundleID, session, pid, started, crashScreen FROM waitingTrail WHERE received >= ?
                ORDER BY received LIMIT ?
                """,
                [.integer(since), .integer(Int64(limit))])
            var found: [SweptJoin] = []
            for row in waiting {
                guard let bundleID = row.string("bundleID"), let session = row.string("session"), let pid = row.int64("pid"),
                    let started = row.int64("started"), let project = row.project()
                else { continue }
                var report: StoreRow?
                for (sql, arguments) in Self.reportForTrail(
                    columns: "report.id AS id, report.signature AS signature", project: project, bundleID: bundleID,
                    session: session, pid: pid, started: started, tolerance: tolerance)
                where report == nil {
                    report = try db.rows(sql, arguments).first
                }
                guard let report, let id = report.string("id"), let signature = report.string("signature") else { continue }
                found.append(
                    SweptJoin(
                        project: project, bundleID: bundleID, session: session, crashScreen: row.string("crashScreen"), report: id,
                        signature: signature))
            }
            return found
        }
        guard !found.isEmpty else { return [] }
        return try write { db in
            var joined: [String] = []
            for join in found {
                // The report may have been deleted since the read; attachWaiting checks the rest.
                guard try !db.rows("SELECT 1 FROM report WHERE id = ?", [.text(join.report)]).isEmpty,
                    try Self.attachWaiting(
                        project: join.project, bundleID: join.bundleID, session: join.session, crashScreen: join.crashScreen,
                        toReport: join.report, signature: join.signature, in: db)
                else { continue }
                joined.append(join.report)
            }
            return joined
        }
    }

    /// A waiting trail and the stored report a sweep found for it.
    private struct SweptJoin {
        var project: ProjectID
        var bundleID: String
        var session: String
        var crashScreen: String?
        var report: String
        var signature: String
    }

    /// How many trails wait for their crashes, their bytes, and when the oldest came.
    /// - Throws: `StoreError` (`database`).
    package func waitingTrailStatus() throws(StoreError) -> WaitingTrailStatus {
        try read { db in
            let totals = try db.rows(
                """
                SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) AS n, CAST(COALESCE(SUM(bytes), 0) AS BIGINT) AS bytes
                FROM waitingTrailTotal
                """, []
            ).first
            let oldest = try db.rows("SELECT MIN(received) AS oldest FROM waitingTrail", []).first
            return WaitingTrailStatus(
                count: Int(totals?.int64("n") ?? 0), bytes: totals?.int64("bytes") ?? 0, oldestReceived: oldest?.int64("oldest"))
        }
    }
}
