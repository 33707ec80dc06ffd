import CZstd
import CrashtrailEncoding
import Foundation

/// Keeps raw payloads compressed in the store at the fastest level: ingest speed matters more than the last few
/// percent, and JSON crash payloads still shrink about six times.
///
/// Payloads are written as zstd frames (RFC 8878) at level 1 with a content checksum, which on crash JSON is
/// about 1.4 times as fast as libdeflate's fastest zlib streams and about 10% smaller (BENCHMARKS.md, Ingest).
/// Stores written before kept zlib streams (RFC 1950); readers tell the two apart by their first bytes (see
/// ``StoredFormat``), so every store stays readable.
package enum PayloadCompression {
    /// How a stored stream is framed, told by its first bytes.
    package enum StoredFormat: Hashable, Sendable {
        /// A zstd frame: starts with the magic number 28 B5 2F FD. What this version writes.
        case zstd
        /// A zlib stream (RFC 1950): a two-byte header naming deflate whose value is a multiple of 31. What
        /// stores written before zstd hold.
        case zlib

        /// The framing of `bytes`, or nil when they start like neither.
        package init?(of bytes: [UInt8]) {
            if bytes.count >= 4, bytes[0] == 0x28, bytes[1] == 0xB5, bytes[2] == 0x2F, bytes[3] == 0xFD {
                self = .zstd
            } else if bytes.count >= 2, bytes[0] & 0x0F == 8, bytes[0] >> 4 <= 7,
                (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
            {
                self = .zlib
            } else {
                return nil
            }
        }
    }

    /// The zstd frame of `bytes`.
    package static func compressed(_ bytes: UnsafeBufferPointer<UInt8>) -> Data {
        let worker = pool.take()
        defer { pool.give(worker) }
        return worker.compress(bytes)
    }

    /// Restores `size` bytes from a stored zstd frame or zlib stream.
    /// - Throws: `PayloadCompressionError` when the stream is neither, is corrupt, or does not restore exactly `size` bytes.
    package static func decompressed(_ bytes: [UInt8], size: Int) throws(PayloadCompressionError) -> [UInt8] {
        guard size > 0 else { return [] }
        switch StoredFormat(of: bytes) {
        case .zstd:
            return try zstdDecompressed(bytes, size: size)
        case .zlib:
            do {
                return try ZlibStream.decompressed(bytes, size: size)
            } catch {
                throw damaged(error.message, cause: error)
            }
        case nil:
            throw damaged("it is neither a zstd frame nor a zlib stream")
        }
    }

    /// Restores exactly `size` bytes from one complete zstd frame; never writes more than `size` bytes.
    private static func zstdDecompressed(_ bytes: [UInt8], size: Int) throws(PayloadCompressionError) -> [UInt8] {
        let declared = ZSTD_getFrameContentSize(bytes, bytes.count)
        guard declared == UInt64(size) else {
            // The two "unknown" and "error" answers are the largest values, never a stored size.
            throw damaged(
                declared >= UInt64.max - 1 ? "unreadable zstd frame header" : "the zstd frame holds \(declared) bytes, not \(size)")
        }
        let frameSize = ZSTD_findFrameCompressedSize(bytes, bytes.count)
        guard ZSTD_isError(frameSize) == 0, frameSize == bytes.count else {
            throw damaged(ZSTD_isError(frameSize) != 0 ? zstdError(frameSize) : "\(bytes.count - frameSize) bytes follow the zstd frame")
        }
        var output = [UInt8](repeating: 0, count: size)
        let produced = output.withUnsafeMutableBytes { out in ZSTD_decompress(out.baseAddress, out.count, bytes, bytes.count) }
        guard ZSTD_isError(produced) == 0, produced == size else {
            throw damaged(ZSTD_isError(produced) != 0 ? zstdError(produced) : "the zstd frame gave \(produced) of \(size) bytes")
        }
        return output
    }

    private static func zstdError(_ code: Int) -> String {
        "zstd: " + String(cString: ZSTD_getErrorName(code))
    }

    private static func damaged(_ reason: String, cause: (any Error & Sendable)? = nil) -> PayloadCompressionError {
        PayloadCompressionError(.damaged, "the stored payload is corrupt (\(reason)); the store file may be damaged", cause: cause)
    }

    /// Compression contexts are costly to set up (tables of a few hundred KB), so ingest workers reuse them.
    private static let pool = CompressorPool()
}

/// A zstd compression context at level 1 with a content checksum, and an output buffer it grows as needed.
///
/// Used by one thread at a time.
final class PayloadCompressor {
    /// zstd's fastest positive level: negative levels are faster still but over 20% larger on crash JSON.
    static let level: Int32 = 1

    private let context: OpaquePointer
    private var output: UnsafeMutableRawBufferPointer

    init() {
        // Only an out-of-memory condition fails here, which Swift itself could not survive.
        guard let context = ZSTD_createCCtx() else {
            fatalError("zstd could not allocate a compression context: out of memory")
        }
        // Both parameters are valid for every zstd since 1.4; they stay set for each frame compressed.
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Self.level)
        // zstd frames carry no checksum unless asked; with one, a damaged payload is refused, as zlib's Adler-32
        // did, instead of read back as wrong bytes.
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        self.context = context
        output = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        ZSTD_freeCCtx(context)
        output.deallocate()
    }

    /// The zstd frame of `bytes`.
    func compress(_ bytes: UnsafeBufferPointer<UInt8>) -> Data {
        let bound = ZSTD_compressBound(bytes.count)
        if output.count < bound {
            output.deallocate()
            output = .allocate(byteCount: bound, alignment: 16)
        }
        let size = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
            // An empty buffer may have no address; zstd wants one even for no bytes.
            ZSTD_compress2(context, output.baseAddress, output.count, bytes.baseAddress ?? UnsafePointer(empty.baseAddress), bytes.count)
        }
        // The buffer holds the bound, so zstd cannot run out of room; only memory could fail it.
        precondition(ZSTD_isError(size) == 0, "zstd failed within its own bound")
        return Data(UnsafeRawBufferPointer(rebasing: output[0..<size]))
    }
}

/// The compressors not in use, shared by the ingest workers.
///
/// `@unchecked` because a compressor (a zstd context and its buffer, not Sendable) passes whole from one worker to the
/// next through the pool: a `Mutex` would have to hand out a non-Sendable value from its region, which the compiler
/// refuses; the lock gives the same exclusion.
final class CompressorPool: @unchecked Sendable {
    private var idle: [PayloadCompressor] = []
    private let lock = NSLock()

    func take() -> PayloadCompressor {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast() ?? PayloadCompressor()
    }

    func give(_ compressor: PayloadCompressor) {
        lock.lock()
        defer { lock.unlock() }
        idle.append(compressor)
    }
}
