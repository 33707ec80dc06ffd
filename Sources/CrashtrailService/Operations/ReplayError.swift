import CrashtrailCore

/// Why `replay` could not replay REPORT: a code, and a message that says what to do.
public struct ReplayError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// REPORT is a folder, or a file that cannot be read.
        public static let unreadable = Code(name: "unreadable")
        /// REPORT is no file, and there is no store to look it up in.
        public static let notFound = Code(name: "not-found")
        /// The file is neither a trail nor a crash payload crashtrail reads.
        public static let unrecognized = Code(name: "unrecognized")
        /// The file holds several crash payloads.
        public static let severalPayloads = Code(name: "several-payloads")
        /// The report carries no trail, or one that cannot be decoded.
        public static let noTrail = Code(name: "no-trail")
        /// The trail is not valid (SPEC section 5).
        public static let invalidTrail = Code(name: "invalid-trail")
        /// The manifest given is another app's, and `force` was not asked.
        public static let otherApp = Code(name: "other-app")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
