import CrashtrailCore
import CrashtrailStore
import Foundation
import Testing

@testable import CrashtrailCollector

/// The ingest writer stores batches in the order they come, and batches that arrive while it is busy wait together and
/// are stored in one transaction; nothing is lost or stored twice, and after a failure nothing more is stored.
@Suite("The ingest writer")
struct BatchWriterTests {
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

    @Test("Batches submitted faster than the writer stores them are all stored, once each", arguments: [1, 8, 1_000])
    func storesEveryBatch(maximumWaiting: Int) throws {
        // Given a writer that lets `maximumWaiting` inputs wait, and 60 batches submitted as fast as possible
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let writer = BatchWriter(
            store: store, state: RunState(quarantine: Quarantine(directory: folder), tracksMissing: false),
            maximumWaiting: maximumWaiting)
        let batches = try Self.batches(count: 60, size: 4)
        for batch in batches { try writer.submit(batch) }
        // When the writer has finished
        let summary = try writer.withState { $0.summary }
        // Then every report was stored once, and the summary counts each input once
        #expect(summary.stored == 240)
        #expect(summary.inputs == 240)
        #expect(summary.duplicates == 0)
        let ids = try store.read { db in try db.strings("SELECT id FROM report ORDER BY id") }
        #expect(
            ids
                == batches.flatMap { $0 }.compactMap { input -> String? in
                    guard case .outcome(.record(let record))? = input.steps.first else { return nil }
                    return record.id
                })
        // And submitting them again finds each stored
        for batch in batches { try writer.submit(batch) }
        #expect(try writer.withState { $0.summary }.duplicates == 240)
    }

    @Test("After a batch fails, the failure is thrown and nothing more is stored")
    func stopsAfterFailure() throws {
        // Given a writer that stored two batches, and a store that then refuses every new report
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let writer = BatchWriter(store: store, state: RunState(quarantine: Quarantine(directory: folder), tracksMissing: false))
        let batches = try Self.batches(count: 12, size: 3)
        try writer.submit(batches[0])
        try writer.submit(batches[1])
        #expect(try writer.withState { $0.summary }.stored == 6)
        try store.write { db in
            try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON report BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        // When more batches are submitted
        var thrown: IngestError?
        do throws(IngestError) {
            for batch in batches.dropFirst(2) { try writer.submit(batch) }
            _ = try writer.withState { $0.summary }
        } catch {
            thrown = error
        }
        // Then the store's error comes back, and nothing was stored after it
        #expect(thrown.map { String(describing: $0) }?.contains("refused") == true, "\(String(describing: thrown))")
        try store.write { db in try db.execute("DROP TRIGGER refuse") }
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM report")?.integer } == 6)
        // And the writer stays stopped: a later batch is refused with the same error
        #expect(throws: IngestError.self) { try writer.submit(batches[11]) }
    }
}
