import CrashtrailForward
import CrashtrailIntake
import CrashtrailStore

/// `serve`'s forwarding outbox on SQLite: claims and settlements go in the group commits that store the requests'
/// reports.
///
/// Forwarding thus never waits for SQLite's one writer while it writes a request's reports, never makes a request
/// wait for a transaction of its own, and pays no commit: its statements ride in the next transaction. The backlog
/// never refuses them (``IntakeWork/weight(of:)``). A transaction that fails fails them too; a settlement lost so
/// is sent again when its claim's lease ends, and the upstream keeps one event per ID.
struct CommittedOutbox: ForwardOutbox {
    let committer: GroupCommitter

    func claim(upstream: String, limit: Int, now: Int64, lease: Int64) async throws -> [ForwardClaim] {
        let outcomes = try await committer.submit(together: [.forwardClaim(upstream: upstream, limit: limit, now: now, lease: lease)])
        guard case .forwardClaims(let claims)? = outcomes.first else {
            throw StoreError(.database, "the store answered a forwarding claim with \(outcomes)")
        }
        return claims
    }

    func settle(_ settlements: [(ForwardClaim, ForwardSettlement)], now: Int64) async throws {
        guard !settlements.isEmpty else { return }
        _ = try await committer.submit(together: [.forwardSettlements(settlements, now: now)])
    }
}
