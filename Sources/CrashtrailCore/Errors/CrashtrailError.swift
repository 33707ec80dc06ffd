/// The shape of every error crashtrail's libraries throw where a person or a program reads it (docs/ARCHITECTURE.md,
/// "Errors").
///
/// - a ``Code`` to decide by, never the message's text;
/// - a `message` that names the value involved and says how to put it right;
/// - a `location`, when the error knows where the problem is (a file, `FILE:LINE`, `line 3, byte 40`, `step 4, field
///   to`);
/// - the `cause` underneath, when a lower layer's failure is wrapped where two layers meet;
/// - one `description` shape: `LOCATION: MESSAGE`, or the message alone.
///
/// ```swift
/// do {
///     try store.addManifest(manifest, text: text)
/// } catch where error.code == .database {
///     print(error)  // writing to the crash store crashtrail.sqlite failed: …
/// }
/// ```
public protocol CrashtrailError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem: a stable name to decide by.
    associatedtype Code: ErrorCode
    /// The kind of problem.
    var code: Code { get }
    /// What went wrong, naming the value involved, and how to put it right.
    var message: String { get }
    /// Where the problem is, when the error knows a place.
    var location: String? { get }
    /// The lower-level error this one wraps, when there is one.
    var cause: (any Error & Sendable)? { get }
}

extension CrashtrailError {
    /// None by default.
    public var location: String? { nil }

    /// None by default.
    public var cause: (any Error & Sendable)? { nil }

    /// `LOCATION: MESSAGE`, or the message alone.
    public var description: String { location.map { "\($0): \(message)" } ?? message }

    /// Two errors are equal when they say the same: the same code, location and message (their causes are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.location == rhs.location && lhs.message == rhs.message
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
        hasher.combine(message)
    }
}

/// An error's kind: an extensible set of stable names (`not-found`, `invalid-json`), so a new kind is not a breaking
/// change, as swift-nio's `FileSystemError.Code` is.
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The stable name, as messages and JSON print it.
    var name: String { get }
}

extension ErrorCode {
    /// The stable name.
    public var description: String { name }
}
