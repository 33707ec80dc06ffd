import CrashtrailCore

/// Why the store could not do what was asked.
public struct StoreError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

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
    /// The backend's error, when a database operation failed.
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what failed, naming the store or the ID, and what to do.
    ///   - candidates: for `ambiguous`, the matching IDs.
    ///   - cause: the backend's error, when one failed.
    public init(_ code: Code, _ message: String, candidates: [String] = [], cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.candidates = candidates
        self.cause = cause
    }

    /// The store's schema has migrations this version does not know: a newer crashtrail wrote it.
    package static func newerSchema(_ unknown: [String]) -> StoreError {
        StoreError(
            .cannotOpen,
            "the crash store was written by a newer crashtrail (its schema has \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")), which this version does not know); upgrade crashtrail to read it, or use another --store"
        )
    }
}
