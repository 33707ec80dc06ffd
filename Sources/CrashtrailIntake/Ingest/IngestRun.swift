import CrashtrailCore
import CrashtrailFormats
import CrashtrailStore
import Synchronization

/// One ingest run's writing side: the ``GroupCommitter`` that stores its batches while the workers parse the next
/// ones, and the run's counts, which each batch's completion updates on the writer's thread.
///
/// After a failure (a transaction, or the quarantine) nothing more is stored, and the next call throws it.
final class IngestRun: Sendable {
    private let committer: GroupCommitter
    private let state: Mutex<RunState>

    /// - Parameters:
    ///   - store: where the reports go.
    ///   - state: the run's counts and quarantine.
    ///   - policy: how many inputs a transaction and the queue hold.
    ///   - time: the clock its transactions read.
    init(store: ReportStore, state: RunState, policy: GroupCommitter.Policy = .ingest(), time: TimeSource = .system) {
        committer = GroupCommitter(store: store, policy: policy, time: time)
        self.state = Mutex(state)
    }

    /// Queues a parsed batch behind the work being stored; waits only while the queue is full.
    /// - Throws: The error that stopped earlier work; this batch is then not queued.
    func store(_ results: [ParsedInput]) throws(IngestError) {
        let records = results.flatMap {
            $0.steps.compactMap { step in if case .outcome(.record(let record)) = step { record } else { nil } }
        }
        try submit([.reports(records, idDecides: false)], what: "a batch of reports") { (state, outcomes) throws(IngestError) in
            guard case .reports(let inserted, let joinedWaiting)? = outcomes.first else { return }
            try state.count(results, outcomes: inserted, joinedWaiting: joinedWaiting)
        }
    }

    /// Queues a batch of decoded trail files to join the stored crashes they belong to, in one transaction.
    /// - Parameters:
    ///   - decoded: each file's path and trail, or why it was refused.
    ///   - tolerance: how far a crash's launch time may be from `session.started`, in milliseconds.
    ///   - directory: the trails folder, for messages.
    ///   - maximumSize: the largest file read again to quarantine it.
    ///   - waits: how many trails that join nothing may wait for their crashes, and for how long (SPEC section 18).
    /// - Throws: The error that stopped earlier work.
    func join(
        _ decoded: [(path: String, result: Result<JoinableTrail, RejectionError>)], tolerance: Int64, from directory: String,
        maximumSize: Int, waits: ReportStore.WaitingTrailLimits
    ) throws(IngestError) {
        // One batch of decoded trails at a time: each holds its trail's canonical JSON (tens of kilobytes for a long
        // trail), so the workers decode the next batch while this one joins, and no more wait.
        try? committer.waitUntilDone()
        let works = decoded.compactMap { item -> IntakeWork? in
            guard case .success(let trail) = item.result else { return nil }
            if let counted = trail.sessionTrail { return .sessionTrail(counted) }
            return .trail(trail, tolerance: tolerance, answersRepeat: false, waits: waits)
        }
        try submit(works, what: "trails from \(directory)") { (state, outcomes) throws(IngestError) in
            try state.countTrails(decoded, outcomes: outcomes, maximumSize: maximumSize)
        }
    }

    /// Counts and quarantines a refusal found before any parsing (a standard-input line over the size limit), in turn
    /// with the batches.
    func rejectReasonOnly(_ reason: RejectionError, source: String) throws(IngestError) {
        try submit([], what: "a refusal") { (state, _) throws(IngestError) in
            state.summary.inputs += 1
            try state.rejectReasonOnly(reason, source: source)
        }
    }

    /// Waits until everything submitted is stored and counted, then returns the counts, updated by `body`.
    /// - Throws: The error that stopped the run.
    func finish<T>(_ body: (inout RunState) -> T) throws(IngestError) -> T {
        try? committer.waitUntilDone()
        return try state.withLock { (state) throws(IngestError) -> T in
            if let failure = state.failure { throw failure }
            return body(&state)
        }
    }

    /// Submits `works` with what their completion does to the run's state.
    private func submit(
        _ works: [IntakeWork], what: String, then update: @escaping @Sendable (inout RunState, [IntakeOutcome]) throws(IngestError) -> Void
    ) throws(IngestError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
        do {
            try committer.submit(works) { [self] result in
                state.withLock { state in
                    state.unlessStopped { (state) throws(IngestError) in
                        switch result {
                        case .success(let outcomes): try update(&state, outcomes)
                        case .failure(let error): throw IngestError(.store, "could not store \(what): \(error)", cause: error)
                        }
                    }
                }
            }
        } catch {
            throw state.withLock { $0.failure } ?? IngestError(.store, "could not store \(what): \(error)", cause: error)
        }
    }
}
