import CrashtrailCore

/// Why a report could not be forwarded, or a forwarding option is wrong.
package struct ForwardError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// A DSN that is not `http(s)://KEY@HOST[:PORT]/PROJECT`.
        package static let invalidDSN = Code(name: "invalid-dsn")
        /// The stored report cannot be made into an event (a damaged payload).
        package static let unconvertible = Code(name: "unconvertible")
    }

    package var code: Code
    package var message: String
    package var cause: (any Error & Sendable)?

    package init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
