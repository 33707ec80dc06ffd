import CrashtrailCore

/// Why a journal could not be written or recovered.
///
/// The message names the journal file and the problem; ``code`` is stable for programs.
public struct JournalError: CrashtrailError, Hashable {
    /// What went wrong, as a stable kebab-case name.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// The file does not start like a crashtrail journal.
        public static let notAJournal = Code(name: "not-a-journal")
        /// The journal was written by a newer format version than this build reads.
        public static let unsupportedVersion = Code(name: "unsupported-version")
        /// The header (app, session, limits, manifest) is torn or damaged, so no step can be trusted.
        public static let damagedHeader = Code(name: "damaged-header")
        /// The file is larger than any journal within its limits can be.
        public static let tooLarge = Code(name: "too-large")
        /// The file could not be read.
        public static let unreadable = Code(name: "unreadable")
        /// The file could not be created or written (a full disk, a read-only folder).
        public static let writeFailed = Code(name: "write-failed")
    }

    public var code: Code
    /// The journal's path.
    public var path: String
    public var message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The journal's path.
    public var location: String? { path }
}
