import CrashtrailCore

/// Why a zlib or deflate stream could not be restored (``ZlibStream``).
public struct ZlibError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The stream is not one zlib or deflate wrote.
        public static let corrupt = Code(name: "corrupt")
        /// The stream ends before its end marker.
        public static let truncated = Code(name: "truncated")
        /// The stream inflates to more than the limit; inflating stopped there.
        public static let overCap = Code(name: "over-cap")
        /// Bytes follow the end of the stream.
        public static let trailingBytes = Code(name: "trailing-bytes")
        /// zlib itself failed (out of memory).
        public static let zlibFailure = Code(name: "zlib-failure")
    }

    public var code: Code
    public var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was wrong with the stream.
    public init(_ code: Code, _ message: String) {
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
