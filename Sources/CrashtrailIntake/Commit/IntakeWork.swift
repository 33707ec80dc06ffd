import CrashtrailReports
import CrashtrailStore

/// What a request or an ingest batch asks of the store: reports to insert, or a separate trail to join.
package enum IntakeWork: Sendable {
    /// Reports to insert.
    ///
    /// With `idDecides`, a report whose ID is already stored is that report sent again (a Sentry SDK's retry of an
    /// event, whose envelope header may differ): it counts as a duplicate. Without it, other bytes under a stored ID are
    /// kept as `ID~HASH` (SPEC section 8).
    case reports([ReportRecord], idDecides: Bool)
    /// A separate trail file to join to the stored crash awaiting it.
    ///
    /// With `answersRepeat`, a trail that joins nothing because it was joined before is answered with the report it
    /// joined then (a client's retry). With `waits`, a trail no stored crash awaits is kept, within those limits, to
    /// join its crash when it comes (SPEC section 18).
    case trail(JoinableTrail, tolerance: Int64, answersRepeat: Bool, waits: ReportStore.WaitingTrailLimits? = nil)
    /// Sessions from a Sentry SDK's `session` and `sessions` items, counted for a project (SPEC section 20).
    case sessions(SessionTally, project: ProjectID)
    /// The trail of a session that did not crash, added to the counts of the paths it went through.
    case sessionTrail(SessionTrail)
    /// Forwarding claims up to `limit` reports due for `upstream` at `now`, for `lease` milliseconds (SPEC section 17).
    ///
    /// In `serve` on SQLite, claims and settlements ride in the group commits, so forwarding never waits for the
    /// store's one writer nor makes intake wait for it, and pays no transaction of its own.
    case forwardClaim(upstream: String, limit: Int, now: Int64, lease: Int64)
    /// Forwarding settles the sends it claimed.
    case forwardSettlements([(ForwardClaim, ForwardSettlement)], now: Int64)

    /// How much of a batch the work takes: its reports, one for a trail, nothing for sessions (a few counts that ride
    /// with their envelope's event; a submission weighs at least 1) nor for forwarding's claims and settlements.
    package var weight: Int {
        switch self {
        case .reports(let records, _): max(1, records.count)
        case .trail, .sessionTrail: 1
        case .sessions, .forwardClaim, .forwardSettlements: 0
        }
    }

    /// How much of the backlog a submission of `works` takes: their weights, and at least 1, except that forwarding's
    /// claims and settlements alone take nothing, so the backlog never refuses them (a settlement refused would send
    /// its reports again).
    package static func weight(of works: [IntakeWork]) -> Int {
        !works.isEmpty && works.allSatisfy(\.isForwarding) ? 0 : max(1, works.reduce(0) { $0 + $1.weight })
    }

    /// Whether it is forwarding's claim or settlement: work that holds no report.
    private var isForwarding: Bool {
        switch self {
        case .forwardClaim, .forwardSettlements: true
        case .reports, .trail, .sessions, .sessionTrail: false
        }
    }
}

/// What became of an ``IntakeWork``.
package enum IntakeOutcome: Sendable, Equatable {
    /// Each report's outcome, in order, and those of the reports stored that joined a trail waiting for them.
    case reports([ReportStore.InsertOutcome], joinedWaiting: Set<String> = [])
    /// The report the trail joined, if any.
    case trail(joined: String?)
    /// The trail joined nothing and waits for its crash.
    case trailWaiting
    /// The trail joined nothing and could not wait: as many trails as the limits allow already wait.
    case trailWaitingFull(count: Int, bytes: Int64)
    /// Sessions or a session's trail, counted.
    case counted
    /// The reports forwarding claimed.
    case forwardClaims([ForwardClaim])
    /// Forwarding's sends, settled.
    case settled
}
