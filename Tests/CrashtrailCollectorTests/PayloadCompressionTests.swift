import CrashtrailTestSupport
import Dispatch
import Foundation
import Testing

@testable import CrashtrailCollector

/// Stored payloads are written by libdeflate and read back by zlib: every size and kind of content must survive
/// the trip byte for byte, from any number of threads at once.
@Suite struct PayloadCompressionTests {
    private func roundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
        let compressed = bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) }
        return try PayloadCompression.decompressed([UInt8](compressed), size: bytes.count)
    }

    @Test func emptyAndTinyPayloadsRoundTrip() throws {
        #expect(try roundTrip([]) == [])
        #expect(try roundTrip([0x7B]) == [0x7B])
        #expect(try roundTrip(Array("{}".utf8)) == Array("{}".utf8))
    }

    @Test func crashPayloadsRoundTripAndShrink() throws {
        let reports = TestFiles.samples.appendingPathComponent("reports")
        let urls = try FileManager.default.contentsOfDirectory(at: reports, includingPropertiesForKeys: nil)
        #expect(urls.count >= 10)
        for url in urls {
            let bytes = [UInt8](try Data(contentsOf: url))
            let compressed = bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) }
            #expect(try PayloadCompression.decompressed([UInt8](compressed), size: bytes.count) == bytes, "\(url.lastPathComponent)")
            if bytes.count > 4_096 {
                #expect(compressed.count * 2 < bytes.count, "\(url.lastPathComponent) should shrink at least twofold")
            }
        }
    }

    @Test func randomAndLargePayloadsRoundTrip() throws {
        var random = SplitMix64(seed: 0xDEF1A7E)
        for size in [1, 2, 255, 256, 65_535, 65_536, 65_537, 300_000, 2_000_000] {
            // Incompressible bytes make libdeflate use its worst-case bound; the output buffer must grow to it.
            let noise = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(try roundTrip(noise) == noise, "\(size) random bytes")
            let text = (0..<size).map { index in UInt8(ascii: "a") + UInt8(index % 7) }
            #expect(try roundTrip(text) == text, "\(size) text bytes")
        }
    }

    @Test func compressesFromManyThreadsAtOnce() throws {
        let inputs: [[UInt8]] = (0..<64).map { index in
            Array(String(repeating: "{\"frame\":\(index),\"symbol\":\"main\"}", count: 50 + index * 40).utf8)
        }
        let results = IndexedSlots<[UInt8]>(count: inputs.count, placeholder: [])
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            let compressed = inputs[index].withUnsafeBufferPointer { PayloadCompression.compressed($0) }
            results.set(index, [UInt8](compressed))
        }
        for (index, compressed) in results.values.enumerated() {
            #expect(try PayloadCompression.decompressed(compressed, size: inputs[index].count) == inputs[index])
        }
    }

    @Test func damagedStreamsAreRefusedWithAReason() {
        let bytes = Array(String(repeating: "crashtrail ", count: 200).utf8)
        var compressed = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        compressed[compressed.count / 2] ^= 0xFF
        #expect(throws: PayloadCompression.Failure.self) { try PayloadCompression.decompressed(compressed, size: bytes.count) }
        let valid = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        do {
            _ = try PayloadCompression.decompressed(valid, size: bytes.count + 1)
            Issue.record("a stream shorter than the stored size must be refused")
        } catch {
            #expect(error.message.contains("store file may be damaged"))
        }
    }
}
