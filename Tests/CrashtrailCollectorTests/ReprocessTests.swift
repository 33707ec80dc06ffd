import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

@Suite("Reprocessing stored reports")
struct ReprocessTests {
    /// The samples stored with their manifest, then aged: signatures and trails as an older version left them.
    static func agedStore() throws -> (ReportStore, fresh: [ReportRecord], folder: URL) {
        let folder = try TestFiles.temporaryFolder()
        let store = try ReportStore(DatabaseQueue())
        _ = try TestFiles.ingest([TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder)
        let fresh = try store.allRecords()
        try store.write { db in
            try db.execute("UPDATE report SET signature = 'SIGSEGV @ an older rule' WHERE format IN ('crashlytics', 'kscrash')")
            // Stored before the crashed thread, the Mach and language exceptions and the binary images were kept.
            try db.execute("UPDATE report SET details = '{}'")
            try db.execute(
                "UPDATE report SET trailSource = 'undecodable', trail = NULL, trailSteps = NULL, trailError = 'old' WHERE format = 'sentry-event'"
            )
        }
        return (store, fresh, folder)
    }

    @Test("Every report is derived again from its payload; a second run changes nothing")
    func reprocessesAndIsIdempotent() throws {
        // Given a store an older version left
        let (store, fresh, folder) = try Self.agedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        // When it is reprocessed, twice
        let first = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()), batchSize: 3)
        let second = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()), batchSize: 3)
        // Then it equals a fresh ingest, and the second run found nothing to change
        #expect(try store.allRecords() == fresh)
        #expect(first.examined == fresh.count && first.changed > 0 && !first.resumed && first.unreadable.isEmpty)
        #expect(second.changed == 0)
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM reprocessCursor")?.integer } == 0)
    }

    @Test("Trails joined before screen paths were kept get theirs, and paths counts them")
    func backfillsJoinedScreenPaths() throws {
        // Given the samples with their trail files joined, whose joined trails lost their screen paths (as trails
        // joined by a version before paths were kept)
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReportStore(DatabaseQueue())
        _ = try TestFiles.ingest(
            [TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder,
            trails: TestFiles.samples.appendingPathComponent("trails").path)
        let paths = { try store.read { db in try db.rows("SELECT id, screenPath, pathManifest FROM joinedTrail ORDER BY id", []) } }
        let joined = try paths()
        #expect(!joined.isEmpty && joined.allSatisfy { $0.string("screenPath") != nil })
        let counts = try store.pathCounts(signature: nil).map { "\($0.key)=\($0.reports)" }.sorted()
        try store.write { db in try db.execute("UPDATE joinedTrail SET screenPath = NULL, pathManifest = NULL") }
        #expect(try store.pathCounts(signature: nil).map { "\($0.key)=\($0.reports)" }.sorted() != counts)

        // When it is reprocessed
        let summary = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()))

        // Then each joined trail has the path it had, the kept counts are back, and the reports changed are counted
        #expect(try paths().map { $0.string("screenPath") } == joined.map { $0.string("screenPath") })
        #expect(try paths().map { $0.string("pathManifest") } == joined.map { $0.string("pathManifest") })
        #expect(try store.pathCounts(signature: nil).map { "\($0.key)=\($0.reports)" }.sorted() == counts)
        #expect(summary.changed == joined.count)
    }

    @Test("A run that stopped resumes after the last batch it finished")
    func resumes() throws {
        let (store, fresh, folder) = try Self.agedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given a run that stopped after the first four reports (by ID)
        let ids = fresh.map(\.id).sorted()
        try store.write { db in try db.execute("INSERT INTO reprocessCursor (job, lastID) VALUES ('reprocess', ?)", [.text(ids[3])]) }
        var seen: [Int] = []
        // When it runs again
        let summary = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()), batchSize: 2) { done, total in
            seen.append(done)
            #expect(total == ids.count)
        }
        // Then it read only the rest, counting on from where it was
        #expect(summary.resumed)
        #expect(summary.examined == ids.count - 4)
        #expect(seen.first == 6 && seen.last == ids.count)
        for record in try store.allRecords() where record.id > ids[3] {
            #expect(fresh.first { $0.id == record.id } == record)
        }
    }

    @Test("A damaged payload leaves its report as it was and says why; the others are reprocessed")
    func damagedPayload() throws {
        let (store, fresh, folder) = try Self.agedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = try #require(fresh.first { $0.format == .crashlytics })
        try store.write { db in try db.execute("UPDATE report SET payload = X'28B52FFD00' WHERE id = ?", [.text(victim.id)]) }
        let summary = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()))
        #expect(summary.unreadable.keys.sorted() == [victim.id])
        #expect(summary.unreadable[victim.id]?.contains("damaged") == true, "\(summary.unreadable)")
        #expect(try store.record(id: victim.id)?.signature == "SIGSEGV @ an older rule")
        #expect(try store.allRecords().count == fresh.count)
    }
}
