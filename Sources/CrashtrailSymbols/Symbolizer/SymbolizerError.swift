import CrashtrailCore

/// Why addresses could not be symbolicated.
package struct SymbolizerError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// No `llvm-symbolizer` was found, or it would not start.
        package static let cannotStart = Code(name: "cannot-start")
        /// The process stopped answering.
        package static let died = Code(name: "died")
        /// It did not answer a batch within its deadline, and was killed.
        package static let timedOut = Code(name: "timed-out")
        /// Another caller kept it busy past the wait allowed.
        package static let busy = Code(name: "busy")
        /// It answered something that is not its JSON.
        package static let unreadableAnswer = Code(name: "unreadable-answer")
        /// It could not read a debug file it was given (its `Error` answer): the file is asked again after a backoff.
        package static let unreadableDebugFile = Code(name: "unreadable-debug-file")
        /// A stored debug file could not be written out for it to read (the cache folder, or damaged chunks).
        package static let debugFileUnwritable = Code(name: "debug-file-unwritable")
        /// The cache folder for debug files is not private to this user.
        package static let unsafeCache = Code(name: "unsafe-cache")
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
