import CrashtrailCore
import CrashtrailStore
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CrashtrailIntake

/// The group committer ingest and serve share stores batches in the order they come, once each.
///
/// Batches that arrive while it is busy wait together and are stored in one transaction. Ingest stops at its first
/// failure; serve fails only the batch a failure hit, and refuses at once when its backlog is full.
@Suite("The group committer")
struct GroupCommitterTests {
    /// `count` batches of `size` distinct reports, made from one sample report.
    static func batches(count: Int, size: Int) throws -> [[ParsedInput]] {
        let sample = TestFiles.samples.appendingPathComponent("reports/kscrash-user-ct1.json")
        let bytes = Array(try Data(contentsOf: sample))
        let outcomes = bytes.withUnsafeBufferPointer {
            PayloadProcessor(decoder: TrailDecodingStub()).process($0, source: sample.path).outcomes
        }
        guard case .record(let record)? = outcomes.first else {
            Issue.record("no record from the sample: \(outcomes)")
            return []
        }
        return (0..<count).map { batch in
            (0..<size).map { index in
                var copy = record
                copy.id = String(format: "B%03d-%03d", batch, index)
                copy.sha256 = String(format: "%064x", batch * size + index + 1)
                return ParsedInput(steps: [.outcome(.record(copy))], inputs: 1)
            }
        }
    }

    /// Submits `record` with a completion that holds the writer until `gate` is signalled, and returns once it holds.
    ///
    /// What is submitted meanwhile waits for the next transaction. It waits without holding a thread of the task pool.
    static func holdWriter(_ committer: GroupCommitter, storing record: ReportRecord, until gate: DispatchSemaphore) async throws {
        try await withCheckedThrowingContinuation { (entered: CheckedContinuation<Void, any Error>) in
            do {
                try committer.submit([.reports([record], idDecides: true)]) { _ in
                    entered.resume()
                    gate.wait()
                }
            } catch {
                entered.resume(throwing: error)
            }
        }
    }

    /// How many reports `store` holds.
    static func reportCount(_ store: ReportStore) throws -> Int64? {
        try store.read { db in try db.value("SELECT COUNT(*) FROM report")?.integer }
    }

    /// The reports of `batches`, in order.
    static func records(_ batches: [[ParsedInput]]) -> [ReportRecord] {
        batches.flatMap { $0 }.compactMap { input -> ReportRecord? in
            if case .outcome(.record(let record))? = input.steps.first { record } else { nil }
        }
    }

    @Test("Batches submitted faster than the writer stores them are all stored, once each", arguments: [1, 8, 1_000])
    func storesEveryBatch(maximumBatch: Int) throws {
        // Given an ingest run whose transactions hold `maximumBatch` inputs, and 60 batches submitted as fast as possible
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let state = RunState(quarantine: Quarantine(directory: folder), tracksMissing: false)
        let run = IngestRun(store: store, state: state, policy: .ingest(maximumBatch: maximumBatch))
        let batches = try Self.batches(count: 60, size: 4)
        for batch in batches { try run.store(batch) }
        // When the writer has finished
        let summary = try run.finish { $0.summary }
        // Then every report was stored once, and the summary counts each input once
        #expect(summary.stored == 240)
        #expect(summary.inputs == 240)
        #expect(summary.duplicates == 0)
        let ids = try store.read { db in try db.strings("SELECT id FROM report ORDER BY id") }
        #expect(ids == Self.records(batches).map(\.id))
        // And submitting them again finds each stored
        for batch in batches { try run.store(batch) }
        #expect(try run.finish { $0.summary }.duplicates == 240)
    }

    @Test("After an ingest batch fails, the failure is thrown and nothing more is stored")
    func stopsAfterFailure() throws {
        // Given an ingest run that stored two batches, and a store that then refuses every new report
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let run = IngestRun(store: store, state: RunState(quarantine: Quarantine(directory: folder), tracksMissing: false))
        let batches = try Self.batches(count: 12, size: 3)
        try run.store(batches[0])
        try run.store(batches[1])
        #expect(try run.finish { $0.summary }.stored == 6)
        try store.write { db in
            try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON report BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        // When more batches are submitted
        var thrown: IngestError?
        do throws(IngestError) {
            for batch in batches.dropFirst(2) { try run.store(batch) }
            _ = try run.finish { $0.summary }
        } catch {
            thrown = error
        }
        // Then the store's error comes back, and nothing was stored after it
        #expect(thrown.map { String(describing: $0) }?.contains("refused") == true, "\(String(describing: thrown))")
        try store.write { db in try db.execute("DROP TRIGGER refuse") }
        #expect(try Self.reportCount(store) == 6)
        // And the run stays stopped: a later batch is refused with the same error
        #expect(throws: IngestError.self) { try run.store(batches[11]) }
    }

    @Test("A failed serve batch fails only its own submissions; the next ones are stored")
    func serveGoesOnAfterFailure() async throws {
        // Given a committer as serve uses it, and a store that refuses one report by its ID
        let store = try TestFiles.memoryStore()
        let committer = GroupCommitter(store: store, policy: .serve(backlog: 100, batchSize: 10))
        let records = try Self.records(Self.batches(count: 3, size: 1))
        try store.write { db in
            try db.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON report WHEN NEW.id = 'B001-000' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        // When each is submitted on its own, in turn
        var outcomes: [Result<IntakeOutcome, any Error>] = []
        for record in records {
            do {
                outcomes.append(.success(try await committer.submit(.reports([record], idDecides: true))))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        // Then the refused one failed, and the others were stored
        #expect((try? outcomes[0].get()) == .reports([.stored("B000-000")]))
        #expect((try? outcomes[1].get()) == nil)
        #expect((try? outcomes[2].get()) == .reports([.stored("B002-000")]))
        #expect(committer.backlog == 0)
    }

    @Test("Serve's backlog refuses at once what does not fit while work waits, and takes any work when nothing waits")
    func serveRefusesWhenFull() async throws {
        // Given a committer whose backlog holds two reports, its writer kept busy by a first report's completion
        let store = try TestFiles.memoryStore()
        let committer = GroupCommitter(store: store, policy: .serve(backlog: 2, batchSize: 1))
        let records = try Self.records(Self.batches(count: 1, size: 5))
        let gate = DispatchSemaphore(value: 0)
        try await Self.holdWriter(committer, storing: records[0], until: gate)
        // When two reports come while the writer is busy, then one more
        try committer.submit([.reports([records[1], records[2]], idDecides: true)]) { _ in }
        var refused: GroupCommitter.BacklogFullError?
        do {
            try committer.submit([.reports([records[3]], idDecides: true)]) { _ in }
        } catch let full as GroupCommitter.BacklogFullError {
            refused = full
        }
        // Then the third is refused at once, naming what waits
        #expect(refused?.waiting == 2)
        gate.signal()
        while committer.backlog > 0 { try await Task.sleep(for: .milliseconds(2)) }
        // And once the backlog has drained, a submission larger than the backlog is still taken
        let outcome = try await committer.submit(.reports(Array(records[3...4]), idDecides: true))
        #expect(outcome == .reports([.stored(records[3].id), .stored(records[4].id)]))
        #expect(try Self.reportCount(store) == 5)
    }

    @Test(
        "The writer waits for expected work to join its transaction, and stops waiting when it is withdrawn",
        .timeLimit(.minutes(10)))
    func lingersForExpectedWork() async throws {
        // Given a serve committer that would wait for expected work far longer than this test runs, its writer kept busy,
        // and a clock that counts its transactions (each reads the time once)
        let store = try TestFiles.memoryStore()
        let transactions = Atomic(0)
        let clock = TimeSource(
            milliseconds: {
                transactions.add(1, ordering: .relaxed)
                return 1_000
            }, uptimeNanoseconds: { 0 })
        let committer = GroupCommitter(
            store: store, policy: .serve(backlog: 100, batchSize: 10, linger: .seconds(600)), time: clock)
        let records = try Self.records(Self.batches(count: 1, size: 5))
        let gate = DispatchSemaphore(value: 0)
        try await Self.holdWriter(committer, storing: records[0], until: gate)
        // When one request is being prepared while another's report waits, and the writer frees up
        let expectation = committer.expect()
        let first = Task { try await committer.submit(.reports([records[1]], idDecides: true)) }
        while committer.backlog < 1 { try await Task.sleep(for: .milliseconds(1)) }
        gate.signal()
        try await Task.sleep(for: .milliseconds(100))
        // Then the waiting report is not committed alone
        #expect(try Self.reportCount(store) == 1)
        // And once the expected work comes, both are stored in the one transaction
        let second = try await committer.submit(together: [.reports([records[2]], idDecides: true)], fulfilling: expectation)
        #expect(second == [.reports([.stored(records[2].id)])])
        #expect(try await first.value == .reports([.stored(records[1].id)]))
        #expect(transactions.load(ordering: .relaxed) == 2)

        // When expected work is withdrawn while the writer waits for it
        try await Self.holdWriter(committer, storing: records[3], until: gate)
        let withdrawn = committer.expect()
        let third = Task { try await committer.submit(.reports([records[4]], idDecides: true)) }
        while committer.backlog < 1 { try await Task.sleep(for: .milliseconds(1)) }
        gate.signal()
        try await Task.sleep(for: .milliseconds(100))
        #expect(try Self.reportCount(store) == 4)
        withdrawn.withdraw()
        // Then what waits is committed without it, long before the writer would have stopped waiting
        #expect(try await third.value == .reports([.stored(records[4].id)]))
        #expect(try Self.reportCount(store) == 5)
    }

    @Test("Forwarding's claims and settlements ride in group commits, and a full backlog never refuses them")
    func forwardingInGroupCommits() async throws {
        // Given serve's committer queueing each stored report for an upstream, its backlog of two full, its writer busy
        let store = try TestFiles.memoryStore()
        var policy = GroupCommitter.Policy.serve(backlog: 2, batchSize: 10, linger: .zero)
        policy.forwardTo = ["upstream"]
        let committer = GroupCommitter(store: store, policy: policy, time: .fixed(milliseconds: 1_000))
        let records = try Self.records(Self.batches(count: 1, size: 4))
        let gate = DispatchSemaphore(value: 0)
        try await Self.holdWriter(committer, storing: records[0], until: gate)
        let waiting = Task { try await committer.submit(together: [.reports([records[1], records[2]], idDecides: true)]) }
        while committer.backlog < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(throws: GroupCommitter.BacklogFullError.self) { try committer.submit([.reports([records[3]], idDecides: true)]) { _ in } }
        // When forwarding claims while the backlog is full
        let claimed = Mutex<[IntakeOutcome]?>(nil)
        let done = DispatchSemaphore(value: 0)
        try committer.submit([.forwardClaim(upstream: "upstream", limit: 10, now: 2_000, lease: 60_000)]) { result in
            claimed.withLock { $0 = try? result.get() }
            done.signal()
        }
        gate.signal()
        // Then the claim is taken, and holds what was stored before it: the reports of its own transaction included
        _ = try await waiting.value
        done.wait()
        guard case .forwardClaims(let claims)? = claimed.withLock({ $0 })?.first else {
            Issue.record("no claims")
            return
        }
        #expect(claims.map(\.reportID) == records[0...2].map(\.id))
        #expect(claims.allSatisfy { $0.claimedUntil == 62_000 })
        // And a second claim finds them held
        let again = try await committer.submit(together: [.forwardClaim(upstream: "upstream", limit: 10, now: 3_000, lease: 60_000)])
        #expect(again == [.forwardClaims([])])
        // And settling them in a group commit delivers each once
        let settled = try await committer.submit(
            together: [.forwardSettlements(claims.map { ($0, .delivered) }, now: 4_000)])
        #expect(settled == [.settled])
        let status = try store.forwardingStatus()
        #expect(status.map(\.delivered) == [3])
        #expect(status.map(\.waiting) == [0])
    }
}
