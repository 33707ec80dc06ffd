/// Why a trail was refused, naming where: `steps[3].to`, `base.tab`, `session.started`.
public struct TrailError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// Not JSON, or JSON crashtrail refuses (fractions, duplicate keys, invalid Unicode…).
        public static let invalidJSON = Code(name: "invalid-json")
        /// A field the format does not name.
        public static let unknownField = Code(name: "unknown-field")
        /// A field the format requires is absent.
        public static let missingField = Code(name: "missing-field")
        /// A field has the wrong JSON type.
        public static let wrongType = Code(name: "wrong-type")
        /// An op crashtrail does not know.
        public static let unknownOp = Code(name: "unknown-op")
        /// A step's `t` is lower than the step before it, or negative.
        public static let nonMonotonicTime = Code(name: "non-monotonic-time")
        /// A value that is not a destination.
        public static let invalidDestination = Code(name: "invalid-destination")
        /// A state whose tab is out of range, or with an empty stack.
        public static let invalidState = Code(name: "invalid-state")
        /// A trail format version this build does not read.
        public static let unsupportedVersion = Code(name: "unsupported-version")
    }

    public var code: Code
    /// Where the problem is, as a path into the trail (`steps[3].to`), or empty for the whole document.
    public var path: String
    /// What is wrong and, where it helps, how to fix it.
    public var message: String

    public init(_ code: Code, at path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The index of the step the problem is in, when it is in one.
    public var step: Int? {
        guard path.hasPrefix("steps[") else { return nil }
        let digits = path.dropFirst("steps[".count).prefix { $0.isNumber }
        return Int(digits)
    }

    /// Where the problem is: `step 3, field to`, `step 3`, or the path (`base.tab`); nil for the whole document.
    public var location: String? {
        if let step {
            let field = path.drop { $0 != "]" }.dropFirst().drop { $0 == "." }
            return field.isEmpty ? "step \(step)" : "step \(step), field \(field)"
        }
        return path.isEmpty ? nil : path
    }
}
