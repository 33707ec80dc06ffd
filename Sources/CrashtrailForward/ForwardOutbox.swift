import CrashtrailStore

/// Where a sender claims the reports it sends and settles them (SPEC section 17).
///
/// `crashtrail forward`, and `serve` on PostgreSQL, claim and settle in transactions of their own on the store. `serve`
/// on SQLite hands them to its group commits, so that forwarding never waits for SQLite's one writer nor makes a
/// request wait for it.
package protocol ForwardOutbox: Sendable {
    /// Claims up to `limit` reports due for `upstream` at `now` that no other sender holds, for `lease` milliseconds.
    /// - Throws: what the store threw.
    func claim(upstream: String, limit: Int, now: Int64, lease: Int64) async throws -> [ForwardClaim]

    /// Settles claimed sends; a claim another sender has taken since is left to it.
    /// - Throws: what the store threw.
    func settle(_ settlements: [(ForwardClaim, ForwardSettlement)], now: Int64) async throws
}

extension ReportStore: ForwardOutbox {
    package func claim(upstream: String, limit: Int, now: Int64, lease: Int64) async throws -> [ForwardClaim] {
        try claimForwarding(upstream: upstream, limit: limit, now: now, lease: lease)
    }

    package func settle(_ settlements: [(ForwardClaim, ForwardSettlement)], now: Int64) async throws {
        try settleForwarding(settlements, now: now)
    }
}
