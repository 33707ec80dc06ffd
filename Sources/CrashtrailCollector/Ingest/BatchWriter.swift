import CrashtrailStore
import Dispatch
import Foundation

/// Stores parsed batches on a writer thread of its own, so the workers parse batch N+1 while batch N is
/// written: the single SQLite writer no longer leaves the cores idle.
///
/// Trail files are joined the same way, decoded on the workers while the batch before is joined.
///
/// Batches are stored in the order they are submitted. While the writer is busy, batches submitted behind it wait
/// together, up to `maximumWaiting` inputs, and are stored in one transaction when it is free: when storing is the
/// slower side (a PostgreSQL server, or a large SQLite store whose indexes take each batch at random places), the
/// workers go on parsing instead of waiting for each batch, and one transaction serves several batches. The run's
/// state belongs to the writer while work is pending; ``withState(_:)`` waits for it before lending the state to the
/// caller. After a failure nothing more is stored and the failure is thrown by the next call.
final class BatchWriter: @unchecked Sendable {
    typealias Results = [ParsedInput]

    private let store: ReportStore
    private let queue = DispatchQueue(label: "crashtrail.ingest.writer")
    private let pending = DispatchGroup()
    // Touched only on `queue` while work is pending, and only by the caller after `pending.wait()`.
    private var state: RunState
    /// Guards `failure`, `waiting` and `waitingInputs`; signalled when the writer takes the waiting batches or fails.
    private let lock = NSCondition()
    private var failure: IngestError?
    /// Batches submitted while the writer was busy, which the job queued for them takes when it starts.
    private var waiting: Results?
    private var waitingInputs = 0
    private let maximumWaiting: Int

    /// A writer of `store`, keeping the run's counts in `state`.
    /// - Parameters:
    ///   - store: the store the batches go to.
    ///   - state: the run's counts and quarantine.
    ///   - maximumWaiting: how many inputs may wait for the busy writer before `submit(_:)` waits too.
    init(store: ReportStore, state: RunState, maximumWaiting: Int = 768) {
        self.store = store
        self.state = state
        self.maximumWaiting = max(1, maximumWaiting)
    }

    /// Queues a batch of parsed reports behind the work being stored.
    ///
    /// It joins the batches already waiting for the writer, if any, and waits only while `maximumWaiting` inputs
    /// already wait.
    /// - Throws: The error that stopped earlier work; this batch is then not queued.
    func submit(_ results: Results) throws(IngestError) {
        lock.lock()
        defer { lock.unlock() }
        while failure == nil, waiting != nil, waitingInputs + results.count > maximumWaiting { lock.wait() }
        if let failure { throw failure }
        if waiting != nil {
            // The job queued for the waiting batches has not started: this batch joins them.
            waiting?.append(contentsOf: results)
            waitingInputs += results.count
            return
        }
        waiting = results
        waitingInputs = results.count
        queue.async(group: pending) { [self] in
            lock.lock()
            let batches = waiting ?? []
            waiting = nil
            waitingInputs = 0
            lock.broadcast()
            lock.unlock()
            run { (state, store) throws(IngestError) in try state.store(batches, in: store) }
        }
    }

    /// Queues work on the store and the run state (a batch of trails to join, say) behind the work pending.
    /// - Throws: The error that stopped earlier work; this work is then not queued.
    func submit(_ work: @escaping @Sendable (inout RunState, ReportStore) throws(IngestError) -> Void) throws(IngestError) {
        pending.wait()
        try throwFailure()
        queue.async(group: pending) { [self] in run(work) }
    }

    /// Waits for the pending work, then runs `body` with the state.
    /// - Throws: The error that stopped a batch, or what `body` throws.
    func withState<T>(_ body: (inout RunState) throws(IngestError) -> T) throws(IngestError) -> T {
        pending.wait()
        try throwFailure()
        return try body(&state)
    }

    /// Runs `work` on the writer's queue, keeping its error; nothing runs after an error.
    private func run(_ work: (inout RunState, ReportStore) throws(IngestError) -> Void) {
        lock.lock()
        let stopped = failure != nil
        lock.unlock()
        guard !stopped else { return }
        do throws(IngestError) {
            try work(&state, store)
        } catch {
            lock.lock()
            failure = error
            lock.broadcast()
            lock.unlock()
        }
    }

    private func throwFailure() throws(IngestError) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
    }
}
