import CrashtrailCore

/// Why a stored payload could not be restored (``PayloadCompression``).
public struct PayloadCompressionError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The stored stream is neither a zstd frame nor a zlib stream, is corrupt, or does not restore its size.
        public static let damaged = Code(name: "damaged")
    }

    public var code: Code
    public var message: String
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was wrong with the stored stream.
    ///   - cause: the decompressor's error, when one failed.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
