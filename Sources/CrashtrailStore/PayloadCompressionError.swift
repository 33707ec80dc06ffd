import CrashtrailCore

/// Why a stored payload could not be restored (``PayloadCompression``).
package struct PayloadCompressionError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The stored stream is neither a zstd frame nor a zlib stream, is corrupt, or does not restore its size.
        package static let damaged = Code(name: "damaged")
    }

    package var code: Code
    package var message: String
    package var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was wrong with the stored stream.
    ///   - cause: the decompressor's error, when one failed.
    package init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
