import CrashtrailCore

/// Why `crashtrail store copy` was refused, or its copy did not verify.
public struct StoreCopyError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// FROM and TO name the same store.
        public static let sameStore = Code(name: "same-store")
        /// The copy does not hold what its source holds.
        public static let notVerified = Code(name: "not-verified")
    }

    public var code: Code
    public var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what was refused, naming the stores, and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
