import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

@Suite("Trails waiting for their manifest")
struct PendingTrailTests {
    @Test("Added manifests are kept once by dictionary ID and read back; waiting trails decode; a damaged payload stays waiting")
    func pendingTrails() throws {
        // Given the samples stored without a manifest, and one waiting report's payload damaged on disk
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReportStore(DatabaseQueue())
        let options = IngestOptions(
            inputs: [TestFiles.samples.appendingPathComponent("reports").path], trailsDirectory: nil,
            quarantineDirectory: folder.appendingPathComponent("quarantine").path, jobs: 1, batchSize: 3)
        _ = try IngestPipeline(store: store, decoder: TrailCodec(), options: options).run()
        let waiting = try store.allRecords().filter { $0.trailSource == .undecodable }
        #expect(waiting.count == 6)
        let damaged = try #require(waiting.first)
        try store.write { db in
            try db.execute(
                "UPDATE report SET payload = ? WHERE id = ?", [.blob(Data([0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3])), .text(damaged.id)])
        }
        // When the manifest is added, twice
        let manifest = try TestFiles.manifest()
        let text = try String(
            contentsOf: TestFiles.samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml"), encoding: .utf8)
        #expect(try store.addManifest(manifest, text: text))
        #expect(try !store.addManifest(manifest, text: text))
        let stored = try store.storedManifests()
        let decoded = try store.decodePendingTrails(with: PayloadDeriver(decoder: TrailCodec(manifests: stored)))
        // Then it is kept once, and every waiting trail but the damaged one's is decoded, the same as a fresh ingest
        #expect(stored.count == 1)
        #expect(ManifestDictionary(manifest: stored[0]).id == ManifestDictionary(manifest: manifest).id)
        #expect(decoded == 5)
        #expect(try store.record(id: damaged.id)?.trailSource == .undecodable)
        let fresh = try ReportStore(DatabaseQueue())
        _ = try IngestPipeline(store: fresh, decoder: TrailCodec(manifests: [manifest]), options: options).run()
        for record in try store.allRecords() where record.id != damaged.id {
            let expected = try #require(try fresh.record(id: record.id))
            #expect(record.trail == expected.trail && record.trailSource == expected.trailSource, "\(record.id)")
            // A trail decoded now gets its screen path with it; one decoded before the manifest came gets it on reprocess.
            if waiting.contains(where: { $0.id == record.id }) {
                #expect(record.storedScreenPath == expected.storedScreenPath, "\(record.id)")
            }
        }
        // And doing it again changes nothing
        #expect(try store.decodePendingTrails(with: PayloadDeriver(decoder: TrailCodec(manifests: stored))) == 0)
    }
}
