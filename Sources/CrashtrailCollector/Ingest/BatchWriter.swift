import CrashtrailStore
import Dispatch
import Foundation

/// Stores parsed batches on a writer thread of its own, so the workers parse batch N+1 while batch N is
/// written: the single SQLite writer no longer leaves the cores idle.
///
/// Trail files are joined the same way, decoded on the workers while the batch before is joined.
///
/// Batches are stored one at a time in the order they are submitted. The run's state belongs to the writer
/// while a batch is pending; ``withState(_:)`` waits for it before lending the state to the caller. After a
/// failure nothing more is stored and the failure is thrown by the next call.
final class BatchWriter: @unchecked Sendable {
    typealias Results = [ParsedInput]

    private let store: ReportStore
    private let queue = DispatchQueue(label: "crashtrail.ingest.writer")
    private let pending = DispatchGroup()
    // Touched only on `queue` while a batch is pending, and only by the caller after `pending.wait()`.
    private var state: RunState
    private var failure: IngestError?

    init(store: ReportStore, state: RunState) {
        self.store = store
        self.state = state
    }

    /// Queues a batch of parsed reports behind the work being stored.
    /// - Throws: The error that stopped earlier work; this batch is then not queued.
    func submit(_ results: Results) throws(IngestError) {
        try submit { (state, store) throws(IngestError) in try state.store(results, in: store) }
    }

    /// Queues work on the store and the run state (a batch of trails to join, say) behind the work pending.
    /// - Throws: The error that stopped earlier work; this work is then not queued.
    func submit(_ work: @escaping @Sendable (inout RunState, ReportStore) throws(IngestError) -> Void) throws(IngestError) {
        pending.wait()
        if let failure { throw failure }
        queue.async(group: pending) { [self] in
            do throws(IngestError) {
                try work(&state, store)
            } catch {
                failure = error
            }
        }
    }

    /// Waits for the pending batch, then runs `body` with the state.
    /// - Throws: The error that stopped a batch, or what `body` throws.
    func withState<T>(_ body: (inout RunState) throws(IngestError) -> T) throws(IngestError) -> T {
        pending.wait()
        if let failure { throw failure }
        return try body(&state)
    }
}
