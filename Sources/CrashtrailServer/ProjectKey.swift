import Foundation

/// Where a request's project key is (SPEC section 14): Sentry's `X-Sentry-Auth` header
/// (`Sentry sentry_key=KEY, sentry_version=7, …`), its `sentry_key` query parameter, an envelope header's `dsn`
/// (`http://KEY@HOST/ID`), or `Authorization: Bearer KEY`.
enum ProjectKey {
    /// The `sentry_key` of an `X-Sentry-Auth` (or `Authorization: Sentry …`) header value.
    static func fromSentryAuth(_ value: String) -> String? {
        var rest = Substring(value).drop(while: \.isWhitespace)
        guard rest.lowercased().hasPrefix("sentry") else { return nil }
        rest = rest.dropFirst("sentry".count)
        for pair in rest.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "sentry_key" else { continue }
            let key = parts[1].trimmingCharacters(in: .whitespaces)
            return key.isEmpty ? nil : key
        }
        return nil
    }

    /// The key of a `Bearer` authorization header value.
    static func fromBearer(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bearer ") else { return nil }
        let key = trimmed.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return key.isEmpty ? nil : key
    }

    /// The key in a DSN's user part.
    static func fromDSN(_ dsn: String) -> String? {
        guard let components = URLComponents(string: dsn), let user = components.user, !user.isEmpty else { return nil }
        return user
    }
}
