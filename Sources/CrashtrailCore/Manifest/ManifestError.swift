/// Why a manifest was refused: the file, the line (for YAML), the destination and the problem.
public struct ManifestError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        public static let unreadable = Code(name: "unreadable")
        public static let invalidField = Code(name: "invalid-field")
        public static let unknownKey = Code(name: "unknown-key")
        public static let unknownCondition = Code(name: "unknown-condition")
        public static let conditionWithoutFlow = Code(name: "condition-without-flow")
        public static let invalidFlow = Code(name: "invalid-flow")
        public static let invalidTabRoot = Code(name: "invalid-tab-root")
        public static let invalidRoot = Code(name: "invalid-root")
        public static let missingRoot = Code(name: "missing-root")
        public static let duplicateTemplate = Code(name: "duplicate-template")
        public static let duplicateDestination = Code(name: "duplicate-destination")
        /// A screen name (`screen:` / `screens:`) names two destinations.
        public static let duplicateScreen = Code(name: "duplicate-screen")
        public static let invalidTemplate = Code(name: "invalid-template")
        /// A `redact` key that names no placeholder or payload path of the destination's template.
        public static let invalidRedact = Code(name: "invalid-redact")
    }

    public var code: Code
    /// The file or name the manifest came from.
    public var source: String
    /// The 1-based line, when known (YAML and JSON both give one).
    public var line: Int?
    /// The destination concerned, when one is.
    public var destination: String?
    public var message: String

    public init(_ code: Code, source: String, line: Int? = nil, destination: String? = nil, _ message: String) {
        self.code = code
        self.source = source
        self.line = line
        self.destination = destination
        self.message = message
    }

    /// Where the problem is: the source, its line when known, and the destination concerned
    /// (`piratebay.yml:12: destination "item"`).
    public var location: String? {
        var location = source
        if let line { location += ":\(line)" }
        if let destination { location += ": destination \"\(destination)\"" }
        return location
    }
}
