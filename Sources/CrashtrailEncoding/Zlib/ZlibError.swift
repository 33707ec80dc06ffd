import CrashtrailCore

/// Why a zlib or deflate stream could not be restored (``ZlibStream``).
package struct ZlibError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The stream is not one zlib or deflate wrote.
        package static let corrupt = Code(name: "corrupt")
        /// The stream ends before its end marker.
        package static let truncated = Code(name: "truncated")
        /// The stream inflates to more than the limit; inflating stopped there.
        package static let overCap = Code(name: "over-cap")
        /// Bytes follow the end of the stream.
        package static let trailingBytes = Code(name: "trailing-bytes")
        /// zlib itself failed (out of memory).
        package static let zlibFailure = Code(name: "zlib-failure")
    }

    package var code: Code
    package var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was wrong with the stream.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The public form of an inflater's failure, for a stream limited to `limit` bytes.
    init(_ failure: RawDeflate.StreamError, limit: Int) {
        let code: Code =
            switch failure {
            case .corrupt: .corrupt
            case .truncated: .truncated
            case .overCap: .overCap
            case .trailingBytes: .trailingBytes
            case .zlib: .zlibFailure
            }
        self.init(code, failure.description(limit: limit))
    }
}
