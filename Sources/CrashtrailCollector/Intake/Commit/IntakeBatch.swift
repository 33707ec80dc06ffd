import CrashtrailStore

/// The one place that decides what a batch of work does to the store, for `ingest` and `serve` alike: duplicates, IDs
/// taken by other bytes, the images each report names, and trail joins.
package enum IntakeBatch {
    /// Applies `works` in the transaction `db`: their reports first, then their trails, so a trail finds a crash
    /// stored in the same batch.
    ///
    /// The reports go in multi-row statements, those whose ID decides (Sentry's protocol) apart from the others. It
    /// starts from nothing each time: a backend may run the transaction again after a lost connection.
    /// - Returns: each work's outcome, in order.
    /// - Throws: the backend's error.
    /// Each report stored is queued, in the same transaction, for each of `forwardTo` (upstreams' identities, SPEC
    /// section 17), so a report acknowledged is a report forwarded.
    package static func apply(
        _ works: [IntakeWork], in db: any StoreTransaction, forwardTo: [String] = [], now: Int64 = 0
    ) throws -> [IntakeOutcome] {
        var inserted: [Bool: ArraySlice<ReportStore.InsertOutcome>] = [:]
        for idDecides in [true, false] {
            let records = works.flatMap { work -> [ReportRecord] in
                if case .reports(let records, idDecides) = work { records } else { [] }
            }
            guard !records.isEmpty else { continue }
            let outcomes = try ReportStore.insert(records, idDecides: idDecides, in: db)
            // The images each stored report's frames name, indexed for the debug files that may come later.
            for (record, outcome) in zip(records, outcomes) where !record.images.isEmpty {
                if case .stored(let id) = outcome { try ReportStore.insertImages(record.images, of: id, in: db) }
            }
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
                return .reports(Array(outcomes.prefix(records.count)))
            case .trail(let trail, let tolerance, let answersRepeat):
                if let joined = try trail.join(tolerance: tolerance, in: db) { return .trail(joined: joined) }
                return .trail(joined: answersRepeat ? try trail.joinedBefore(tolerance: tolerance, in: db) : nil)
            }
        }
    }
}
