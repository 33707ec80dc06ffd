import CrashtrailCore
public import CrashtrailReports
import Crypto

/// A token `crashtrail project token add` made (SPEC section 19): what it may do, and for which project.
///
/// The store keeps only the SHA-256 of a token's value (``hash(of:)``) and its first characters (``hint``), so a store
/// that leaks gives no working token.
public struct AccessToken: Hashable, Sendable {
    /// What a token may do.
    public enum Scope: String, CaseIterable, Hashable, Sendable, Comparable {
        /// Read the project's pages, JSON and metrics.
        case read
        /// Upload debug files to the project, as `sentry-cli debug-files upload` does with `SENTRY_AUTH_TOKEN`.
        case debugFiles = "debug-files"

        public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Its number in the store, which `project token revoke` takes.
    public var id: Int
    /// The project it opens: one, or `.all` for an operator's token, which opens every project.
    public var project: ProjectScope
    public var scopes: Set<Scope>
    /// The value's first 8 characters, to tell tokens apart in a listing.
    public var hint: String
    /// When it was made, in milliseconds since 1970.
    public var created: Int64
    /// A revoked token opens nothing.
    public var revoked: Bool
    /// The SHA-256 of its value, in lower-case hex.
    public var hash: String

    public init(
        id: Int, project: ProjectScope, scopes: Set<Scope>, hint: String, created: Int64, revoked: Bool = false, hash: String
    ) {
        self.id = id
        self.project = project
        self.scopes = scopes
        self.hint = hint
        self.created = created
        self.revoked = revoked
        self.hash = hash
    }

    /// Whether it may do `scope` in `wanted`: an operator's token anywhere, a project's token in its own project only.
    /// - Parameters:
    ///   - scope: what the request would do.
    ///   - wanted: where: one project, or every project (as the read side's pages of the whole store show).
    /// - Returns: whether the token may.
    public func allows(_ scope: Scope, project wanted: ProjectScope) -> Bool {
        guard !revoked, scopes.contains(scope) else { return false }
        return project == .all || project == wanted
    }

    /// A new token's value: 64 lower-case hex digits (256 random bits), the form of Sentry's auth tokens, which
    /// `sentry-cli` takes as `SENTRY_AUTH_TOKEN`.
    public static func newValue() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<64).map { _ in digits[Int(generator.next() % 16)] })
    }

    /// The SHA-256 of a token's value, in lower-case hex, as the store keeps it.
    public static func hash(of value: String) -> String {
        Hex.lowercase(SHA256.hash(data: Array(value.utf8)))
    }

    /// Compares two secrets in time that depends on their lengths only, never on where they first differ.
    public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference: UInt8 = 0
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        // The lengths compared whole: a difference of 256 bytes is a difference.
        return difference == 0 && left.count == right.count
    }

    /// Reads `read,debug-files`.
    /// - Returns: the scopes, or nil when a name is none of them.
    public static func scopes(_ text: String) -> Set<Scope>? {
        var scopes: Set<Scope> = []
        for name in text.split(separator: ",") {
            guard let scope = Scope(rawValue: name.trimmingCharacters(in: .whitespaces)) else { return nil }
            scopes.insert(scope)
        }
        return scopes.isEmpty ? nil : scopes
    }
}
