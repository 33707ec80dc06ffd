import CLibdeflate
import CrashtrailEncoding
import Foundation

/// Keeps raw payloads zlib-compressed in the store (RFC 1950) at the fastest level: ingest speed matters more
/// than the last few percent, and JSON crash payloads still shrink about five times.
///
/// Payloads are compressed with libdeflate, which writes standard zlib streams about twice as fast as zlib's
/// own level 1 and slightly smaller (BENCHMARKS.md, Ingest). They are read back with plain zlib
/// (`ZlibStream` in `CrashtrailEncoding`), so a store never depends on which library wrote it.
public enum PayloadCompression {
    /// Why a stored payload could not be restored.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The zlib stream of `bytes`.
    public static func compressed(_ bytes: UnsafeBufferPointer<UInt8>) -> Data {
        let worker = pool.take()
        defer { pool.give(worker) }
        return worker.compress(bytes)
    }

    /// Restores `size` bytes from a zlib stream.
    /// - Throws: `Failure` when the stream is corrupt or does not inflate to exactly `size` bytes.
    public static func decompressed(_ bytes: [UInt8], size: Int) throws(Failure) -> [UInt8] {
        do {
            return try ZlibStream.decompressed(bytes, size: size)
        } catch {
            throw Failure(message: "the stored payload is corrupt (\(error.message)); the store file may be damaged")
        }
    }

    /// Compressors are costly to set up (hash tables of a few hundred KB), so ingest workers reuse them.
    private static let pool = CompressorPool()
}

/// A libdeflate compressor at level 1 with an output buffer it grows as needed. Used by one thread at a time.
final class PayloadCompressor {
    private let compressor: OpaquePointer
    private var output: UnsafeMutableRawBufferPointer

    init() {
        // Level 1 is always valid; only an out-of-memory condition fails, which Swift itself could not survive.
        guard let compressor = libdeflate_alloc_compressor(1) else {
            fatalError("libdeflate could not allocate a compressor: out of memory")
        }
        self.compressor = compressor
        output = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        libdeflate_free_compressor(compressor)
        output.deallocate()
    }

    /// The zlib stream of `bytes`.
    func compress(_ bytes: UnsafeBufferPointer<UInt8>) -> Data {
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        if output.count < bound {
            output.deallocate()
            output = .allocate(byteCount: bound, alignment: 16)
        }
        let size = libdeflate_zlib_compress(compressor, bytes.baseAddress, bytes.count, output.baseAddress, output.count)
        // The buffer holds the bound, so libdeflate cannot run out of room.
        precondition(size > 0, "libdeflate reported no room within its own bound")
        return Data(bytes: output.baseAddress!, count: size)
    }
}

/// The compressors not in use, shared by the ingest workers.
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
