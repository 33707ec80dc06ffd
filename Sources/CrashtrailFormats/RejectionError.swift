import CrashtrailCore

/// Why an input was refused: it goes to the quarantine folder with this reason beside it.
public struct RejectionError: CrashtrailError, Hashable {
    /// The reason's short, stable name, counted in the summary's `rejectedByReason`.
    public struct Code: ErrorCode, Comparable {
        public let name: String
        public init(_ name: String) { self.name = name }
        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.name < rhs.name }

        /// The file could not be read.
        public static let unreadable = Code("unreadable")
        /// Empty or only whitespace.
        public static let empty = Code("empty")
        /// Not JSON at all, or JSON of no crash format crashtrail knows.
        public static let unrecognizedFormat = Code("unrecognized-format")
        /// A format crashtrail recognizes but does not ingest (MetricKit).
        public static let unsupportedFormat = Code("unsupported-format")
        /// Recognized, but its JSON is broken or truncated.
        public static let invalidJSON = Code("invalid-json")
        /// Recognized, but a field the format needs is missing or of the wrong type.
        public static let invalidReport = Code("invalid-report")
        /// A Sentry envelope whose framing is broken, or whose event item is not a usable event.
        public static let invalidEnvelope = Code("invalid-envelope")
        /// Over the payload size limit: quarantined by reference, not copied.
        public static let tooLarge = Code("too-large")
        /// A file in the trails folder that is not a decodable trail.
        public static let undecodableTrail = Code("undecodable-trail")
    }

    public var code: Code
    /// What was wrong with the input and, where it helps, how to fix it.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
