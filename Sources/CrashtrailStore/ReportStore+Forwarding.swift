import Foundation

/// A report waiting in the forwarding outbox for one upstream, as a sender claimed it.
package struct ForwardClaim: Hashable, Sendable {
    package var reportID: String
    package var upstream: String
    /// Sends tried before this one.
    package var attempts: Int
    /// When it was queued, in milliseconds since 1970.
    package var queued: Int64
    /// Until when this claim holds it: settling it checks the claim is still this one, so a sender whose lease ended
    /// and whose report another sender took changes nothing.
    package var claimedUntil: Int64
}

/// Where a report stands in the forwarding outbox for one upstream: the `state` column, written only through this
/// type.
package enum ForwardState: String, Hashable, Sendable, CaseIterable {
    /// Not yet delivered: never tried, or to be tried again at its `due` time.
    case waiting
    /// The upstream took it.
    case delivered
    /// An answer that can never succeed; kept with its `reason`, not sent again.
    case setAside

    /// The state as an SQL string literal: the outbox's partial index is on `state` = waiting, and a query uses it only
    /// when its condition names the same literal (a bound parameter would not).
    package var sqlLiteral: String { "'\(rawValue)'" }
}

/// What became of a claimed send.
package enum ForwardSettlement: Hashable, Sendable {
    /// The upstream took it.
    case delivered
    /// Try again at `due` (milliseconds since 1970); `reason` says why it failed, `counts` whether it was an attempt
    /// (a report held for its trail was not).
    case retry(due: Int64, reason: String, counts: Bool)
    /// It can never succeed: kept with its reason, not sent again.
    case setAside(reason: String)
}

/// The forwarding outbox of one upstream, for `forward --status` and `/metrics`.
package struct ForwardStatus: Hashable, Sendable {
    package var upstream: String
    package var delivered: Int
    /// Waiting, never tried.
    package var waiting: Int
    /// Waiting after a failed send.
    package var retrying: Int
    /// Set aside, by reason.
    package var setAside: [String: Int]
    /// When the oldest report still waiting was queued (milliseconds since 1970).
    package var oldestWaiting: Int64?
}

/// The forwarding outbox (SPEC section 17): one row for each report and upstream, written in the transaction that
/// stores the report, claimed by senders for a lease, settled after the upstream answers.
extension ReportStore {
    /// Queues the reports `ids` for each of `upstreams`, in the transaction `db` (the one that stores them).
    ///
    /// A report already queued for an upstream stays as it is.
    /// - Throws: the backend's error.
    package static func queueForwarding(_ ids: [String], to upstreams: [String], now: Int64, in db: any StoreTransaction) throws {
        guard !ids.isEmpty, !upstreams.isEmpty else { return }
        let rows = upstreams.flatMap { upstream in ids.map { (upstream, $0) } }
        for start in stride(from: 0, to: rows.count, by: 100) {
            let slice = rows[start..<min(rows.count, start + 100)]
            let values = Array(repeating: "(?, ?, \(ForwardState.waiting.sqlLiteral), 0, ?, 0, ?)", count: slice.count).joined(
                separator: ", ")
            try db.execute(
                """
                INSERT INTO forwardOutbox (reportID, upstream, state, attempts, due, claimedUntil, queued)
                VALUES \(values) ON CONFLICT (reportID, upstream) DO NOTHING
                """,
                slice.flatMap { upstream, id in [.text(id), .text(upstream), .integer(now), .integer(now)] as [StoreValue] })
        }
    }

    /// Queues every stored report `filter` selects for `upstream`, unless it is queued or delivered there already.
    /// - Returns: how many reports were newly queued.
    /// - Throws: `StoreError` (`database`).
    package func queueForwarding(_ filter: ReportFilter, to upstream: String, now: Int64) throws(StoreError) -> Int {
        let (condition, arguments) = filter.sql(dialect)
        return try write { db in
            try db.execute(
                """
                INSERT INTO forwardOutbox (reportID, upstream, state, attempts, due, claimedUntil, queued)
                SELECT id, ?, \(ForwardState.waiting.sqlLiteral), 0, ?, 0, ? FROM reportWithTrail WHERE \(condition)
                ON CONFLICT (reportID, upstream) DO NOTHING
                """, [.text(upstream), .integer(now), .integer(now)] + arguments)
        }
    }

    /// Claims up to `limit` reports due for `upstream` that no other sender holds, for `lease` milliseconds.
    ///
    /// Oldest due first. Two senders on one store never claim the same report at once: the claim re-checks the row
    /// it updates.
    /// - Throws: `StoreError` (`database`).
    package func claimForwarding(upstream: String, limit: Int, now: Int64, lease: Int64) throws(StoreError) -> [ForwardClaim] {
        try write { db in try Self.claimForwarding(upstream: upstream, limit: limit, now: now, lease: lease, in: db) }
    }

    /// Claims up to `limit` reports due for `upstream`, as ``claimForwarding(upstream:limit:now:lease:)`` does, in the
    /// transaction `db`.
    /// - Throws: the backend's error.
    package static func claimForwarding(
        upstream: String, limit: Int, now: Int64, lease: Int64, in db: any StoreTransaction
    ) throws -> [ForwardClaim] {
        try db.rows(
            """
            UPDATE forwardOutbox SET claimedUntil = ?
            WHERE upstream = ? AND state = \(ForwardState.waiting.sqlLiteral) AND due <= ? AND claimedUntil <= ? AND reportID IN (
                SELECT reportID FROM forwardOutbox
                WHERE upstream = ? AND state = \(ForwardState.waiting.sqlLiteral) AND due <= ? AND claimedUntil <= ?
                ORDER BY due, reportID LIMIT ?)
            RETURNING reportID, upstream, attempts, queued, claimedUntil
            """,
            [
                .integer(now + lease), .text(upstream), .integer(now), .integer(now), .text(upstream), .integer(now), .integer(now),
                .integer(Int64(limit)),
            ]
        ).map { row in
            ForwardClaim(
                reportID: try row.requiredString("reportID"), upstream: try row.requiredString("upstream"),
                attempts: row.int("attempts") ?? 0, queued: row.int64("queued") ?? 0,
                claimedUntil: row.int64("claimedUntil") ?? 0)
        }.sorted { $0.reportID < $1.reportID }
    }

    /// Whether a report is due for `upstream` that no sender holds: a read, so an idle sender polls without taking
    /// the store's write lock.
    /// - Throws: `StoreError` (`database`).
    package func hasDueForwarding(upstream: String, now: Int64) throws(StoreError) -> Bool {
        try read { db in
            try db.value(
                "SELECT 1 FROM forwardOutbox WHERE upstream = ? AND state = \(ForwardState.waiting.sqlLiteral) AND due <= ? AND claimedUntil <= ? LIMIT 1",
                [.text(upstream), .integer(now), .integer(now)]) != nil
        }
    }

    /// How many reports still wait for any of `upstreams` (never tried, or to be retried).
    /// - Throws: `StoreError` (`database`).
    package func waitingForwarding(upstreams: [String]) throws(StoreError) -> Int {
        guard !upstreams.isEmpty else { return 0 }
        let places = Array(repeating: "?", count: upstreams.count).joined(separator: ", ")
        return try read { db in
            Int(
                try db.value(
                    "SELECT COUNT(*) FROM forwardOutbox WHERE state = \(ForwardState.waiting.sqlLiteral) AND upstream IN (\(places))",
                    upstreams.map(StoreValue.text)
                )?.integer ?? 0)
        }
    }

    /// Settles claimed sends, in one transaction; a claim another sender has taken since is left to it.
    /// - Throws: `StoreError` (`database`).
    package func settleForwarding(_ settlements: [(ForwardClaim, ForwardSettlement)], now: Int64) throws(StoreError) {
        guard !settlements.isEmpty else { return }
        try write { db in try Self.settleForwarding(settlements, now: now, in: db) }
    }

    /// Settles claimed sends, as ``settleForwarding(_:now:)`` does, in the transaction `db`.
    /// - Throws: the backend's error.
    package static func settleForwarding(
        _ settlements: [(ForwardClaim, ForwardSettlement)], now: Int64, in db: any StoreTransaction
    ) throws {
        for (claim, settlement) in settlements {
            let key: [StoreValue] = [.text(claim.reportID), .text(claim.upstream), .integer(claim.claimedUntil)]
            switch settlement {
            case .delivered:
                try db.execute(
                    """
                    UPDATE forwardOutbox SET state = \(ForwardState.delivered.sqlLiteral), attempts = attempts + 1, delivered = ?, claimedUntil = 0,
                        reason = NULL
                    WHERE reportID = ? AND upstream = ? AND claimedUntil = ?
                    """, [.integer(now)] + key)
            case .retry(let due, let reason, let counts):
                try db.execute(
                    """
                    UPDATE forwardOutbox SET attempts = attempts + ?, due = ?, claimedUntil = 0, reason = ?
                    WHERE reportID = ? AND upstream = ? AND claimedUntil = ? AND state = \(ForwardState.waiting.sqlLiteral)
                    """, [.integer(counts ? 1 : 0), .integer(due), .text(reason)] + key)
            case .setAside(let reason):
                try db.execute(
                    """
                    UPDATE forwardOutbox SET state = \(ForwardState.setAside.sqlLiteral), attempts = attempts + 1, claimedUntil = 0, reason = ?
                    WHERE reportID = ? AND upstream = ? AND claimedUntil = ?
                    """, [.text(reason)] + key)
            }
        }
    }

    /// Every upstream's outbox: delivered, waiting, retrying, set aside by reason, the oldest waiting.
    /// - Throws: `StoreError` (`database`).
    package func forwardingStatus() throws(StoreError) -> [ForwardStatus] {
        try read { db in
            var byUpstream: [String: ForwardStatus] = [:]
            for row in try db.rows(
                """
                SELECT upstream, state, attempts > 0 AS tried, reason, COUNT(*) AS n, MIN(queued) AS oldest
                FROM forwardOutbox GROUP BY upstream, state, attempts > 0, reason
                """, [])
            {
                let upstream = try row.requiredString("upstream")
                var status =
                    byUpstream[upstream]
                    ?? ForwardStatus(upstream: upstream, delivered: 0, waiting: 0, retrying: 0, setAside: [:], oldestWaiting: nil)
                let count = row.int("n") ?? 0
                switch ForwardState(rawValue: try row.requiredString("state")) {
                case .delivered: status.delivered += count
                case .setAside: status.setAside[row.string("reason") ?? "unknown", default: 0] += count
                case .waiting, nil:
                    if (row.int("tried") ?? 0) > 0 { status.retrying += count } else { status.waiting += count }
                    if let oldest = row.int64("oldest") { status.oldestWaiting = min(status.oldestWaiting ?? oldest, oldest) }
                }
                byUpstream[upstream] = status
            }
            return byUpstream.values.sorted { $0.upstream < $1.upstream }
        }
    }
}
