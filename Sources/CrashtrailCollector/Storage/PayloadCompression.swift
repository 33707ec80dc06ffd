import CrashtrailEncoding

/// Keeps raw payloads zlib-compressed in the store (RFC 1950), at zlib's fastest level: ingest speed matters
/// more than the last few percent, and JSON crash payloads still shrink several times.
///
/// The zlib calls themselves live in `CrashtrailEncoding` (`ZlibStream`), the one place that imports `CZlib`.
public enum PayloadCompression {
    /// Why a stored payload could not be restored.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The zlib stream of `bytes`.
    public static func compressed(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        ZlibStream.compressed(bytes, level: 1)
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
}
