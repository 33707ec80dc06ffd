/// Why the store could not do what was asked.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }
        /// The store file could not be opened or migrated.
        public static let cannotOpen = Code(name: "cannot-open")
        /// No report has an ID starting with the prefix.
        public static let notFound = Code(name: "not-found")
        /// Several reports have IDs starting with the prefix.
        public static let ambiguous = Code(name: "ambiguous")
        /// A database operation failed.
        public static let database = Code(name: "database")
    }

    public var code: Code
    public var message: String
    /// For `ambiguous`, the matching IDs.
    public var candidates: [String]

    public init(_ code: Code, _ message: String, candidates: [String] = []) {
        self.code = code
        self.message = message
        self.candidates = candidates
    }

    public var description: String { message }

    /// The store's schema has migrations this version does not know: a newer crashtrail wrote it.
    public static func newerSchema(_ unknown: [String]) -> StoreError {
        StoreError(
            .cannotOpen,
            "the crash store was written by a newer crashtrail (its schema has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")), which this version does not know); upgrade crashtrail to read it, or use another --store"
        )
    }
}
