import CrashtrailCollector
import CrashtrailStore
import Dispatch
import Foundation

/// Stores what requests bring in group commits: the requests that arrive while one transaction is written wait
/// together and are stored by the next, so a commit's cost is shared (SPEC section 14).
///
/// A request is answered only after the transaction holding its work has committed: with SQLite's WAL or
/// PostgreSQL, a committed transaction survives the process being killed. The backlog is bounded: when `capacity`
/// reports already wait, a submission is refused with ``BacklogFull`` at once rather than queued.
final class GroupCommitter: @unchecked Sendable {
    /// Work a request asks of the store.
    enum Work: Sendable {
        /// Reports to insert. With `idDecides`, a report whose ID is already stored is that report sent again (a
        /// Sentry SDK's retry of an event, whose envelope header may differ): it counts as a duplicate. Without it,
        /// other bytes under a stored ID are kept as `ID~HASH`, as ingest does (SPEC section 8).
        case reports([ReportRecord], idDecides: Bool)
        /// A trail to join to the stored crash awaiting it.
        case trail(JoinableTrail, tolerance: Int64)
    }

    /// What became of the work.
    enum Outcome: Sendable {
        case reports([ReportStore.InsertOutcome])
        /// The report the trail joined (now, or when the same trail was sent before), if any.
        case trail(joined: String?)
    }

    /// The backlog is full: the caller answers 429.
    struct BacklogFull: Error {
        var waiting: Int
    }

    private struct Pending {
        var work: Work
        var weight: Int
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private let store: ReportStore
    private let capacity: Int
    private let maximumBatch: Int
    private let queue = DispatchQueue(label: "crashtrail.serve.writer")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var pending: [Pending] = []
    private var waiting = 0
    private var writing = false

    /// - Parameters:
    ///   - store: where the work is stored.
    ///   - capacity: how many reports (and trails) may wait for a commit before submissions are refused.
    ///   - maximumBatch: the most reports one transaction stores.
    init(store: ReportStore, capacity: Int, maximumBatch: Int) {
        self.store = store
        self.capacity = max(1, capacity)
        self.maximumBatch = max(1, maximumBatch)
    }

    /// How many reports and trails wait for a commit now.
    var backlog: Int { lock.withLock { waiting } }

    /// Stores `work` in the next group commit and returns once it has committed.
    /// - Throws: ``BacklogFull`` at once when the backlog is full; `StoreError` when the transaction failed (nothing
    ///   of the work was stored).
    func submit(_ work: Work) async throws -> Outcome {
        let weight: Int
        switch work {
        case .reports(let records, _): weight = max(1, records.count)
        case .trail: weight = 1
        }
        return try await withCheckedThrowingContinuation { continuation in
            let start: Bool
            lock.lock()
            if waiting > 0, waiting + weight > capacity {
                let count = waiting
                lock.unlock()
                continuation.resume(throwing: BacklogFull(waiting: count))
                return
            }
            pending.append(Pending(work: work, weight: weight, continuation: continuation))
            waiting += weight
            start = !writing
            writing = true
            lock.unlock()
            if start { queue.async { self.drain() } }
        }
    }

    /// Applies a batch's work in one transaction: its reports first, then its trails.
    ///
    /// The reports go in multi-row statements, those of Sentry's protocol (where the ID decides) apart from the
    /// others; the trails come after, so a trail finds a crash stored in the same batch. It starts from nothing each
    /// time: a backend may run the transaction again after a lost connection.
    static func apply(_ works: [Work], in db: any StoreTransaction) throws -> [Outcome] {
        var inserted: [Bool: ArraySlice<ReportStore.InsertOutcome>] = [:]
        for idDecides in [true, false] {
            let records = works.flatMap { work -> [ReportRecord] in
                if case .reports(let records, idDecides) = work { records } else { [] }
            }
            inserted[idDecides] = try ReportStore.insert(records, idDecides: idDecides, in: db)[...]
        }
        return try works.map { work in
            switch work {
            case .reports(let records, let idDecides):
                let outcomes = inserted[idDecides, default: []]
                inserted[idDecides] = outcomes.dropFirst(records.count)
                return .reports(Array(outcomes.prefix(records.count)))
            case .trail(let trail, let tolerance):
                return .trail(joined: try trail.join(tolerance: tolerance, in: db) ?? trail.joinedBefore(tolerance: tolerance, in: db))
            }
        }
    }

    /// Writes what waits, one transaction at a time, until nothing does.
    private func drain() {
        while true {
            let batch: [Pending] = lock.withLock {
                var taken = 0
                var count = 0
                while count < pending.count, count == 0 || taken + pending[count].weight <= maximumBatch {
                    taken += pending[count].weight
                    count += 1
                }
                let batch = Array(pending.prefix(count))
                pending.removeFirst(count)
                if batch.isEmpty { writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            let result: Result<[Outcome], StoreError> = Result { () throws(StoreError) in
                try store.write { db in try Self.apply(batch.map(\.work), in: db) }
            }
            lock.withLock { waiting -= batch.reduce(0) { $0 + $1.weight } }
            switch result {
            case .success(let outcomes):
                for (pending, outcome) in zip(batch, outcomes) { pending.continuation.resume(returning: outcome) }
            case .failure(let error):
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
    }
}
