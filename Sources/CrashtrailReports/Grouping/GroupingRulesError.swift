import CrashtrailCore

/// A mistake in grouping rules, at its line and column (`rules.txt:3:17: …`), or a note on a rule crashtrail accepts
/// without being able to act on it.
package struct GroupingRulesError: CrashtrailError, Hashable {
    /// What kind of mistake it is.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The text is not Sentry's rule syntax there.
        package static let syntax = Code(name: "syntax")
        /// A matcher Sentry does not have (`Unknown matcher`).
        package static let unknownMatcher = Code(name: "unknown-matcher")
        /// A fingerprint attribute other than `title`.
        package static let unknownAttribute = Code(name: "unknown-attribute")
        /// An action's value that is not one (`max-frames=many`).
        package static let invalidValue = Code(name: "invalid-value")
        /// A note: accepted, without effect in crashtrail.
        package static let noEffect = Code(name: "no-effect")
    }

    package var code: Code
    package var message: String
    /// The file the rules came from, when known.
    package var file: String?
    /// The 1-based line.
    package var line: Int
    /// The 1-based column, in characters.
    package var column: Int

    /// `FILE:LINE:COLUMN`, or `line L, column C` when the rules came from no file.
    package var location: String? { file.map { "\($0):\(line):\(column)" } ?? "line \(line), column \(column)" }

    package init(_ code: Code, _ message: String, file: String?, line: Int, column: Int) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }
}
