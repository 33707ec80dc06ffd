import CrashtrailCore

/// Why an ingest run could not run at all (as opposed to refusing single inputs, which it reports and goes on).
public struct IngestError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The store could not be written.
        public static let store = Code(name: "store")
        /// The quarantine folder could not be written.
        public static let quarantine = Code(name: "quarantine")
        /// The trails folder could not be read.
        public static let trails = Code(name: "trails")
    }

    public var code: Code
    public var message: String
    /// The store's or the file system's error underneath.
    public var cause: (any Error & Sendable)?

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what could not be done, naming the folder or store, and what to do.
    ///   - cause: the lower layer's error, when one failed.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
