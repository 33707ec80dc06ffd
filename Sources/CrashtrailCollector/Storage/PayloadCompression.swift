import CZlib

/// Keeps raw payloads zlib-compressed in the store (RFC 1950), at zlib's fastest level: ingest speed matters
/// more than the last few percent, and JSON crash payloads still shrink several times.
///
/// zlib's one-shot `compress2` and `uncompress` are plain functions, so this needs none of the macro shims the
/// trail codec wraps.
public enum PayloadCompression {
    /// Why a stored payload could not be restored.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The zlib stream of `bytes`.
    public static func compressed(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { out in
            // `compress2` takes a non-null source even for an empty input.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
                compress2(
                    out.baseAddress, &capacity, bytes.baseAddress ?? UnsafePointer(empty.baseAddress),
                    uLong(bytes.count), 1)
            }
        }
        // compress2 only fails for a too-small buffer or no memory; compressBound rules out the first.
        guard status == Z_OK else { return [] }
        output.removeLast(output.count - Int(capacity))
        return output
    }

    /// Restores `size` bytes from a zlib stream.
    /// - Throws: `Failure` when the stream is corrupt or does not inflate to exactly `size` bytes.
    public static func decompressed(_ bytes: [UInt8], size: Int) throws(Failure) -> [UInt8] {
        guard size > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: size)
        var produced = uLong(size)
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &produced, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(produced) == size else {
            throw Failure(message: "the stored payload is corrupt (zlib status \(status), \(produced) of \(size) bytes); the store file may be damaged")
        }
        return output
    }
}
