import CrashtrailReports
import CrashtrailStore

/// The one place that decides what a batch of work does to the store, for `ingest` and `serve` alike: duplicates, IDs
/// taken by other bytes, the images each report names, and trail joins.
package enum IntakeBatch {
    /// Applies `works` in the transaction `db`: their reports first (each joining the trail that waited for it, SPEC
    /// section 18), then their trails, so a trail finds a crash stored in the same batch.
    ///
    /// The reports go in multi-row statements, those whose ID decides (Sentry's protocol) apart from the others. It
    /// starts from nothing each time: a backend may run the transaction again after a lost connection.
    /// - Returns: each work's outcome, in order.
    /// - Throws: the backend's error.
    /// Each report stored is queued, in the same transaction, for each of `forwardTo` (upstreams' identities, SPEC
    /// section 17), so a report acknowledged is a report forwarded.
    package static func apply(
        _ works: [IntakeWork], in db: any StoreTransaction, forwardTo: [String] = [], now: Int64 = 0,
        joinTolerance: Int64 = IntakeDefaults.joinTolerance
    ) throws -> [IntakeOutcome] {
        // Sessions first, every tally of the batch merged per project: one read and write per hour counted, however many
        // envelopes carried them.
        var tallies: [ProjectID: SessionTally] = [:]
        for case .sessions(let tally, let project) in works { tallies[project, default: SessionTally()].add(tally) }
        for (project, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            try ReportStore.addSessions(tally, project: .one(project), now: now, in: db)
        }
        // Then the paths of sessions that did not crash, every trail of the batch summed by row and written in one order.
        var visits = ReportStore.PathVisitBatch()
        for case .sessionTrail(let trail) in works {
            visits.add(trail.visits, release: trail.release, weight: trail.weight, project: .one(trail.project))
        }
        if !visits.isEmpty { try ReportStore.addPathVisits(visits, in: db) }
        var inserted: [Bool: ArraySlice<ReportStore.InsertOutcome>] = [:]
        var joinedWaiting: Set<String> = []
        for idDecides in [true, false] {
            let records = works.flatMap { work -> [ReportRecord] in
                if case .reports(let records, idDecides) = work { records } else { [] }
            }
            guard !records.isEmpty else { continue }
            let outcomes = try ReportStore.insert(records, idDecides: idDecides, in: db)
            // The images each stored report's frames name, indexed for the debug files that may come later.
            var stored: [(id: String, record: ReportRecord)] = []
            for (record, outcome) in zip(records, outcomes) {
                guard case .stored(let id) = outcome else { continue }
                stored.append((id, record))
                if !record.images.isEmpty { try ReportStore.insertImages(record.images, of: id, in: db) }
                if let bundleID = record.bundleID, let session = record.sessionID {
                    try ReportStore.insertSession(of: id, bundleID: bundleID, session: session, in: db)
                }
            }
            joinedWaiting.formUnion(try ReportStore.joinWaitingTrails(to: stored, tolerance: joinTolerance, in: db))
            inserted[idDecides] = outcomes[...]
            if !forwardTo.isEmpty {
                let stored = outcomes.compactMap { outcome -> String? in if case .stored(let id) = outcome { id } else { nil } }
                try ReportStore.queueForwarding(stored, to: forwardTo, now: now, in: db)
            }
        }
        return try works.map { work in
            switch work {
            case .reports(let records, let idDecides):
                let outcomes = inserted[idDecides, default: []]
                inserted[idDecides] = outcomes.dropFirst(records.count)
                let mine = Array(outcomes.prefix(records.count))
                guard !joinedWaiting.isEmpty else { return .reports(mine) }
                let ids = Set(mine.compactMap { outcome -> String? in if case .stored(let id) = outcome { id } else { nil } })
                return .reports(mine, joinedWaiting: joinedWaiting.intersection(ids))
            case .trail(let trail, let tolerance, let answersRepeat, let waits):
                if let joined = try trail.join(tolerance: tolerance, in: db) { return .trail(joined: joined) }
                // A trail joined before (a client's retry, a folder ingested again) joins nothing and does not wait.
                if answersRepeat || waits != nil, let before = try trail.joinedBefore(tolerance: tolerance, in: db) {
                    return .trail(joined: answersRepeat ? before : nil)
                }
                guard let waits else { return .trail(joined: nil) }
                switch try ReportStore.keepWaiting(trail.waiting, limits: waits, now: now, in: db) {
                case .waiting: return .trailWaiting
                case .full(let count, let bytes): return .trailWaitingFull(count: count, bytes: bytes)
                }
            case .sessions:
                return .counted
            case .sessionTrail:
                return .counted
            case .forwardClaim(let upstream, let limit, let now, let lease):
                return .forwardClaims(try ReportStore.claimForwarding(upstream: upstream, limit: limit, now: now, lease: lease, in: db))
            case .forwardSettlements(let settlements, let now):
                try ReportStore.settleForwarding(settlements, now: now, in: db)
                return .settled
            }
        }
    }
}
