import CrashtrailCore
import CrashtrailStore
import Dispatch
import Foundation
import Synchronization

/// Stores work in group commits on a writer thread of its own, for `ingest` and `serve` alike: the submissions that
/// arrive while one transaction is written wait together and are stored by the next, so a commit's cost is shared,
/// and the callers go on (parsing the next batch, answering other requests) meanwhile.
///
/// Every transaction runs ``IntakeBatch/apply(_:in:)``. A submission's completion is called once the transaction that
/// holds it has committed (with SQLite's WAL or PostgreSQL, a committed transaction survives the process being
/// killed), on the writer's thread and in the order of submission. What differs between the jobs is a ``Policy``:
/// `ingest` waits for room and stops at the first failure; `serve` refuses at once when its backlog is full
/// (``BacklogFullError``, answered 429) and fails only the batch a failure hit.
///
/// A service's clients each wait for their answer, so few submissions wait together when the writer frees up (two on
/// average under `Tools/serve-bench.sh`), and each pays much of a commit of its own. A caller that is preparing work
/// says so first (``expect()``); while such work is being prepared, the writer waits for it a moment (at most
/// ``Policy/linger``), so it joins the transaction instead of starting the next one. The writer never waits for
/// work nobody prepares: with nothing expected, it commits what waits at once.
package final class GroupCommitter: Sendable {
    /// How a job uses the committer.
    package struct Policy: Sendable {
        /// How much work (reports, and one for each trail) may wait to be committed, the transaction being written
        /// included; a submission that does not fit waits or is refused, but one always fits when nothing waits.
        package var capacity: Int
        /// The most work one transaction stores (and at least one submission).
        package var maximumBatch: Int
        /// Whether a submission that does not fit waits for room (`ingest`, whose parsing then pauses) or is refused
        /// at once with ``BacklogFullError`` (`serve`).
        package var waitsForRoom: Bool
        /// Whether a failed transaction stops the committer, so that everything submitted after fails with its error
        /// (`ingest`, which then stops), or fails only its own submissions (`serve`).
        package var stopsAtFailure: Bool
        /// The upstreams (their identities) each stored report is queued for in the forwarding outbox, in the
        /// transaction that stores it (`serve --forward`).
        package var forwardTo: [String] = []
        /// How far a crash's launch time may be from a waiting trail's `session.started`, in milliseconds, for a crash
        /// that carries no session (SPEC sections 7 and 18).
        package var joinTolerance: Int64 = IntakeDefaults.joinTolerance
        /// The longest the writer waits for expected work (``GroupCommitter/expect()``) before it commits what waits;
        /// zero never waits.
        package var linger: Duration = .zero

        /// `ingest`: up to `maximumBatch` inputs a transaction, and a batch more waiting, so the workers parse the next
        /// batches while one is written.
        package static func ingest(maximumBatch: Int = 768) -> Policy {
            Policy(
                capacity: max(1, maximumBatch) + IntakeDefaults.batchSize, maximumBatch: max(1, maximumBatch), waitsForRoom: true,
                stopsAtFailure: true)
        }

        /// `serve`: at most `backlog` reports waiting, `batchSize` a transaction, and the writer waits up to `linger`
        /// for requests being parsed.
        package static func serve(backlog: Int, batchSize: Int, linger: Duration = .milliseconds(2)) -> Policy {
            Policy(
                capacity: max(1, backlog), maximumBatch: max(1, batchSize), waitsForRoom: false, stopsAtFailure: false,
                linger: linger)
        }
    }

    /// The backlog is full: the caller answers 429 and the client sends again later.
    package struct BacklogFullError: CrashtrailError, Hashable {
        /// What kind of problem it was.
        package struct Code: ErrorCode {
            package let name: String

            /// More work waits to be stored than the policy's capacity.
            package static let backlogFull = Code(name: "backlog-full")
        }

        /// How much work waited.
        package var waiting: Int
        package var code: Code { .backlogFull }
        package var message: String {
            "the backlog is full (\(waiting) reports wait to be stored); send again later, or raise serve's --backlog"
        }
    }

    /// Told what became of a submission's works, in order, once its transaction committed (or failed).
    package typealias Completion = @Sendable (Result<[IntakeOutcome], StoreError>) -> Void

    private struct Submission: Sendable {
        var works: [IntakeWork]
        var weight: Int
        var completion: Completion
    }

    private struct State: Sendable {
        var pending: [Submission] = []
        /// The weight of every submission not yet committed.
        var waiting = 0
        var writing = false
        /// The failure that stopped the committer (``Policy/stopsAtFailure``).
        var failure: StoreError?
        /// Submitters waiting for room, each to be woken once.
        var blocked = 0
        /// Work being prepared that its callers expect to submit (``Expectation``).
        var expected = 0
        /// Whether the writer waits for expected work, to be woken when it arrives or is withdrawn.
        var lingering = false

        /// Whether the writer should wait for expected work, marking it lingering if so.
        ///
        /// It waits when some work is being prepared, something already waits (the writer only lingers to add to a
        /// transaction), the transaction and the backlog have room for more, and nothing stopped the committer.
        mutating func startLingering(maximumBatch: Int, capacity: Int) -> Bool {
            lingering = expected > 0 && waiting > 0 && waiting < min(maximumBatch, capacity) && failure == nil
            return lingering
        }

        /// Stops the writer lingering; whether it was, and so must be woken.
        mutating func stopLingering() -> Bool {
            defer { lingering = false }
            return lingering
        }
    }

    /// Work a caller is preparing and will submit: the writer waits for it a moment rather than commit without it.
    ///
    /// Pass it to the submission, which fulfils it; ``withdraw()`` it (or let it go) when nothing will be submitted.
    /// Fulfilling or withdrawing it again does nothing.
    package final class Expectation: Sendable {
        private let committer: GroupCommitter
        private let settled = Atomic(false)

        fileprivate init(_ committer: GroupCommitter) { self.committer = committer }

        deinit { withdraw() }

        /// Nothing will be submitted: the writer stops waiting for it.
        package func withdraw() {
            if settle() { committer.unexpect() }
        }

        /// Marks it settled; whether it was not yet.
        fileprivate func settle() -> Bool {
            !settled.exchange(true, ordering: .acquiringAndReleasing)
        }
    }

    private let store: ReportStore
    private let policy: Policy
    private let time: TimeSource
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "crashtrail.intake.writer")
    /// Signalled once for each blocked submitter when a commit makes room.
    private let room = DispatchSemaphore(value: 0)
    /// Signalled when expected work arrives (or is withdrawn) while the writer lingers for it.
    private let arrivals = DispatchSemaphore(value: 0)
    /// Entered by each submission until its completion has run.
    private let outstanding = DispatchGroup()

    /// A committer of `store` used as `policy` says, whose transactions read the time from `time`.
    package init(store: ReportStore, policy: Policy, time: TimeSource = .system) {
        self.store = store
        self.policy = policy
        self.time = time
    }

    /// How much work waits to be committed now.
    package var backlog: Int { state.withLock { $0.waiting } }

    /// Says the caller is preparing work it will submit, so that the writer may wait for it (``Policy/linger``).
    package func expect() -> Expectation {
        state.withLock { $0.expected += 1 }
        return Expectation(self)
    }

    /// One expected work less: it was withdrawn.
    fileprivate func unexpect() {
        let wakes = state.withLock { state -> Bool in
            state.expected -= 1
            return state.stopLingering()
        }
        if wakes { arrivals.signal() }
    }

    /// Queues `works` to be stored together in the next group commit, and returns without waiting for it, unless
    /// there is no room and the policy waits for room.
    /// - Parameters:
    ///   - works: what to store; all of it in one transaction.
    ///   - expectation: the caller's ``expect()`` for this work, fulfilled once it is queued.
    ///   - completion: told the outcomes once committed.
    /// - Throws: ``BacklogFullError`` at once when there is no room and the policy refuses; the `StoreError` that stopped the
    ///   committer, when it stops at failures. The completion is then never called.
    package func submit(_ works: [IntakeWork], fulfilling expectation: Expectation? = nil, completion: @escaping Completion) throws {
        let weight = IntakeWork.weight(of: works)
        enum Admission {
            case queued(startsWriter: Bool, wakesWriter: Bool)
            case waitForRoom
            case full(waiting: Int)
            case stopped(StoreError)
        }
        outstanding.enter()
        while true {
            let admission = state.withLock { state -> Admission in
                if let failure = state.failure { return .stopped(failure) }
                if weight > 0, state.waiting > 0, state.waiting + weight > policy.capacity {
                    guard policy.waitsForRoom else { return .full(waiting: state.waiting) }
                    state.blocked += 1
                    return .waitForRoom
                }
                state.pending.append(Submission(works: works, weight: weight, completion: completion))
                state.waiting += weight
                if expectation?.settle() == true { state.expected -= 1 }
                let wakesWriter = state.stopLingering()
                defer { state.writing = true }
                return .queued(startsWriter: !state.writing, wakesWriter: wakesWriter)
            }
            switch admission {
            case .queued(let startsWriter, let wakesWriter):
                if startsWriter { queue.async { self.drain() } }
                if wakesWriter { arrivals.signal() }
                return
            case .waitForRoom:
                room.wait()
            case .full(let waiting):
                outstanding.leave()
                throw BacklogFullError(waiting: waiting)
            case .stopped(let failure):
                outstanding.leave()
                throw failure
            }
        }
    }

    /// Stores `work` in the next group commit and returns its outcome once it has committed.
    /// - Throws: ``BacklogFullError`` at once when the backlog is full; `StoreError` when the transaction failed (nothing of
    ///   the work was stored).
    package func submit(_ work: IntakeWork) async throws -> IntakeOutcome {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try submit([work]) { result in
                    continuation.resume(with: result.flatMap { outcomes in outcomes.first.map(Result.success) ?? .failure(Self.noOutcome) })
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Stores `works` together in the next group commit (one transaction: all or none) and returns their outcomes, in
    /// order, once they have committed.
    /// - Throws: as `submit(_:)`.
    package func submit(together works: [IntakeWork], fulfilling expectation: Expectation? = nil) async throws -> [IntakeOutcome] {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try submit(works, fulfilling: expectation) { result in continuation.resume(with: result) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Waits until every submission so far has been committed and its completion has run.
    /// - Throws: the `StoreError` that stopped the committer, if one did.
    package func waitUntilDone() throws(StoreError) {
        outstanding.wait()
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// A transaction that answered fewer outcomes than works: never expected.
    private static let noOutcome = StoreError(.database, "the store answered no outcome for a submission")

    /// Writes what waits, one transaction at a time, until nothing does.
    private func drain() {
        while true {
            let (batch, stoppedBy) = takeBatch()
            guard !batch.isEmpty else { return }
            let result = stoppedBy.map { .failure($0) } ?? commit(batch.flatMap(\.works))
            makeRoom(after: batch, result)
            complete(batch, result)
        }
    }

    /// Waits, at most ``Policy/linger``, while expected work is being prepared and the next transaction has room for
    /// it.
    private func lingerForExpectedWork() {
        guard policy.linger > .zero else { return }
        let deadline = DispatchTime.now() + DispatchTimeInterval.nanoseconds(Int(policy.linger / .nanoseconds(1)))
        while state.withLock({ $0.startLingering(maximumBatch: policy.maximumBatch, capacity: policy.capacity) }) {
            if arrivals.wait(timeout: deadline) == .timedOut {
                _ = state.withLock { $0.stopLingering() }
                return
            }
        }
    }

    /// The submissions the next transaction stores (at least one, at most ``Policy/maximumBatch`` of work), and the
    /// failure that stopped the committer, if one did; none when nothing waits, and the writer then stops.
    private func takeBatch() -> ([Submission], StoreError?) {
        lingerForExpectedWork()
        return state.withLock { state in
            var weight = 0
            var count = 0
            while count < state.pending.count, count == 0 || weight + state.pending[count].weight <= policy.maximumBatch {
                weight += state.pending[count].weight
                count += 1
            }
            let batch = Array(state.pending.prefix(count))
            state.pending.removeFirst(count)
            if batch.isEmpty { state.writing = false }
            return (batch, state.failure)
        }
    }

    /// Stores `works` in one transaction.
    private func commit(_ works: [IntakeWork]) -> Result<[IntakeOutcome], StoreError> {
        guard !works.isEmpty else { return .success([]) }
        let (forwardTo, joinTolerance, now) = (policy.forwardTo, policy.joinTolerance, time.now())
        return Result { () throws(StoreError) in
            try store.write { db in
                try IntakeBatch.apply(works, in: db, forwardTo: forwardTo, now: now, joinTolerance: joinTolerance)
            }
        }
    }

    /// Takes `batch` off the backlog, keeps a failure that stops the committer, and wakes each submitter waiting for
    /// room once.
    private func makeRoom(after batch: [Submission], _ result: Result<[IntakeOutcome], StoreError>) {
        let woken = state.withLock { state -> Int in
            state.waiting -= batch.reduce(0) { $0 + $1.weight }
            if case .failure(let error) = result, policy.stopsAtFailure, state.failure == nil { state.failure = error }
            defer { state.blocked = 0 }
            return state.blocked
        }
        for _ in 0..<woken { room.signal() }
    }

    /// Tells each submission of `batch` its own outcomes (its slice of the transaction's, in order), or the failure.
    private func complete(_ batch: [Submission], _ result: Result<[IntakeOutcome], StoreError>) {
        var outcomes = (try? result.get())?[...] ?? []
        for submission in batch {
            switch result {
            case .success:
                submission.completion(.success(Array(outcomes.prefix(submission.works.count))))
                outcomes = outcomes.dropFirst(submission.works.count)
            case .failure(let error):
                submission.completion(.failure(error))
            }
            outstanding.leave()
        }
    }
}
