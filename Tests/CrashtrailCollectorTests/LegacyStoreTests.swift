import CrashtrailEncoding
import Foundation
import GRDB
import Testing

@testable import CrashtrailStore

/// Stores written before zstd hold zlib payload streams: rows in that form must read back exactly as rows in the
/// new form do.
@Suite struct LegacyStoreTests {
    @Test func rowsWithZlibPayloadsReadBackByteIdentical() throws {
        // Given the samples ingested, and each row's raw payload read back from its zstd frame
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest(
            [TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder,
            trails: TestFiles.samples.appendingPathComponent("trails").path)
        let current = try store.allRecords()
        #expect(current.count >= 10)
        let raw = try current.map { try $0.rawPayload() }

        // When every payload is stored again as the zlib stream a store made before zstd holds
        try store.write { db in
            for (record, bytes) in zip(current, raw) {
                #expect(PayloadCompression.StoredFormat(of: [UInt8](record.payload)) == .zstd)
                let stream = bytes.withUnsafeBufferPointer { ZlibStream.compressed($0, level: 1) }
                try db.execute("UPDATE report SET payload = ? WHERE id = ?", [.blob(Data(stream)), .text(record.id)])
            }
        }

        // Then the rows read back the same raw payloads, reports and trails
        let legacy = try store.allRecords()
        #expect(legacy.map(\.id) == current.map(\.id))
        for (index, record) in legacy.enumerated() {
            #expect(PayloadCompression.StoredFormat(of: [UInt8](record.payload)) == .zlib)
            #expect(try record.rawPayload() == raw[index], "\(record.id)")
            #expect(record.report == current[index].report)
            #expect(try record.decodedTrail() == current[index].decodedTrail())
        }
    }
}
