import CrashtrailEncoding
import CrashtrailTestSupport
import Dispatch
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

/// Stored payloads are written as zstd frames and read back from them or from older stores' zlib streams.
///
/// Stores made before hold zlib streams (written by libdeflate) that must still read back. Every size and kind of content must survive the trip byte for byte, from any number of
/// threads at once, and a damaged stream must be refused with a reason, never crash or give wrong bytes.
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
        // Around the compressor's first buffer (64 KiB) and zstd's block size (128 KiB), then well past both.
        for size in [1, 2, 3, 4, 5, 255, 256, 65_535, 65_536, 65_537, 131_071, 131_072, 131_073, 300_000, 2_000_000] {
            // Incompressible bytes make zstd use its worst-case bound; the output buffer must grow to it.
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

    @Test func writesZstdFrames() {
        let bytes = Array(String(repeating: "{\"symbol\":\"main\"}", count: 100).utf8)
        let compressed = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        #expect(Array(compressed.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
        #expect(PayloadCompression.StoredFormat(of: compressed) == .zstd)
        let empty = [UInt8]([]).withUnsafeBufferPointer { [UInt8](PayloadCompression.compressed($0)) }
        #expect(PayloadCompression.StoredFormat(of: empty) == .zstd)
    }

    @Test func tellsTheStoredFormatsApart() {
        #expect(PayloadCompression.StoredFormat(of: Self.libdeflateStream) == .zlib)
        // Every zlib header zlib itself writes: levels 0 to 9 give 78 01, 78 5E, 78 9C and 78 DA.
        for level in Int32(0)...9 {
            let stream = Array("crashtrail".utf8).withUnsafeBufferPointer { ZlibStream.compressed($0, level: level) }
            #expect(PayloadCompression.StoredFormat(of: stream) == .zlib, "level \(level)")
        }
        #expect(PayloadCompression.StoredFormat(of: []) == nil)
        #expect(PayloadCompression.StoredFormat(of: [0x28, 0xB5, 0x2F]) == nil)
        #expect(PayloadCompression.StoredFormat(of: [0x78, 0x02]) == nil)
        #expect(PayloadCompression.StoredFormat(of: Array("{\"id\":1}".utf8)) == nil)
    }

    /// A payload compressed by libdeflate 1.14 at level 1, exactly as stores made before zstd hold it.
    static let libdeflateStream: [UInt8] = [
        0x78, 0x01, 0x95, 0xCB, 0xB1, 0x0A, 0xC2, 0x30, 0x14, 0x05, 0xD0, 0x7F, 0xB9, 0x73, 0x1C, 0x0A, 0xE2, 0xF0, 0xB6,
        0x36, 0x86, 0x22, 0x38, 0x08, 0x01, 0x51, 0x44, 0xCA, 0xB3, 0xA6, 0xF5, 0x41, 0xD3, 0x96, 0x24, 0x83, 0xA5, 0xF4,
        0xDF, 0x25, 0x9F, 0xE0, 0xD9, 0xCF, 0x8A, 0x36, 0x70, 0xFC, 0xA4, 0xC0, 0x32, 0x80, 0x0A, 0x05, 0x79, 0x83, 0x70,
        0x36, 0x75, 0xA9, 0xEF, 0xBB, 0x02, 0x0A, 0xEE, 0xDB, 0xBA, 0x39, 0xC9, 0x34, 0x82, 0x56, 0xA4, 0x65, 0x76, 0x20,
        0x98, 0x9B, 0x6E, 0xAA, 0xF2, 0xD8, 0x94, 0x5A, 0x1B, 0x6B, 0xA1, 0x10, 0xA5, 0x1F, 0x79, 0x00, 0xC1, 0x9E, 0x6A,
        0x6B, 0xEA, 0x2B, 0x36, 0x85, 0x2E, 0xB0, 0x77, 0x11, 0xF4, 0x58, 0x21, 0x9E, 0xFB, 0xFC, 0x2E, 0x12, 0x38, 0xB9,
        0x8A, 0x97, 0x5C, 0x16, 0xFF, 0x9A, 0x72, 0xF1, 0x2C, 0x23, 0x14, 0xA6, 0xAE, 0x8B, 0x2E, 0x81, 0x0E, 0xFB, 0x4D,
        0xFD, 0x3D, 0x9E, 0xDB, 0x0F, 0x7C, 0x2B, 0x3F, 0x43,
    ]
    static let libdeflateText = Array(
        (#"{"crashtrail":1,"id":"LEGACY-1","exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},"frames":"#
            + #"[{"image":"PirateBay","symbol":"main","offset":64},{"image":"PirateBay","symbol":"main","offset":64}]}"#).utf8)

    @Test func payloadsStoredByLibdeflateStillReadBack() throws {
        #expect(try PayloadCompression.decompressed(Self.libdeflateStream, size: Self.libdeflateText.count) == Self.libdeflateText)
    }

    /// The zlib path of stores made before zstd, at every level and size: read back byte for byte.
    @Test func zlibStreamsOfEverySizeStillReadBack() throws {
        var random = SplitMix64(seed: 0x2E1B)
        let reports = TestFiles.samples.appendingPathComponent("reports")
        var inputs = try FileManager.default.contentsOfDirectory(at: reports, includingPropertiesForKeys: nil)
            .map { [UInt8](try Data(contentsOf: $0)) }
        for size in [1, 2, 255, 65_536, 131_073, 1_000_000] {
            inputs.append((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            inputs.append((0..<size).map { index in UInt8(ascii: "a") + UInt8(index % 13) })
        }
        for bytes in inputs {
            for level: Int32 in [1, 6, 9] {
                let stream = bytes.withUnsafeBufferPointer { ZlibStream.compressed($0, level: level) }
                #expect(try PayloadCompression.decompressed(stream, size: bytes.count) == bytes, "\(bytes.count) bytes at level \(level)")
            }
        }
    }

    /// A damaged zstd frame never gives back other bytes.
    ///
    /// Every single-byte change is refused with the store's reason or, where it touches a bit the decoder never
    /// uses, gives back the same bytes (the frame's checksum catches what the format itself would not). Every
    /// cut, and anything after the frame, is refused.
    @Test func damagedZstdFramesNeverGiveOtherBytes() {
        let bytes = Array(String(repeating: "{\"image\":\"PirateBay\",\"offset\":64} ", count: 40).utf8)
        let frame = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        var refusals = 0
        func check(_ damaged: [UInt8], _ what: String, mayReadBack: Bool) {
            do {
                let restored = try PayloadCompression.decompressed(damaged, size: bytes.count)
                #expect(mayReadBack && restored == bytes, "\(what) was read back")
            } catch {
                refusals += 1
                #expect(error.message.hasSuffix("the store file may be damaged"), "\(what): \(error.message)")
            }
        }
        for index in frame.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = frame
                damaged[index] ^= flip
                check(damaged, "byte \(index) xor \(flip)", mayReadBack: true)
            }
        }
        // Nearly every change is caught, not just a lucky few.
        #expect(refusals * 10 >= frame.count * 3 * 9)
        for length in 0..<frame.count { check(Array(frame.prefix(length)), "the first \(length) bytes", mayReadBack: false) }
        check(frame + [0], "a frame with a byte after it", mayReadBack: false)
        check(frame + frame, "two frames", mayReadBack: false)
    }

    @Test func damagedStreamsAreRefusedWithAReason() {
        let bytes = Array(String(repeating: "crashtrail ", count: 200).utf8)
        var compressed = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        compressed[compressed.count / 2] ^= 0xFF
        #expect(throws: PayloadCompressionError.self) { try PayloadCompression.decompressed(compressed, size: bytes.count) }
        let valid = [UInt8](bytes.withUnsafeBufferPointer { PayloadCompression.compressed($0) })
        do {
            _ = try PayloadCompression.decompressed(valid, size: bytes.count + 1)
            Issue.record("a stream shorter than the stored size must be refused")
        } catch {
            #expect(error.message.contains("store file may be damaged"))
        }
        var zlib = Self.libdeflateStream
        zlib[zlib.count / 2] ^= 0xFF
        #expect(throws: PayloadCompressionError.self) { try PayloadCompression.decompressed(zlib, size: Self.libdeflateText.count) }
        do {
            _ = try PayloadCompression.decompressed(Array("{\"id\":1}".utf8), size: 8)
            Issue.record("bytes that are neither zstd nor zlib must be refused")
        } catch {
            let reason = "it is neither a zstd frame nor a zlib stream"
            #expect(error.message == "the stored payload is corrupt (\(reason)); the store file may be damaged")
        }
    }
}
