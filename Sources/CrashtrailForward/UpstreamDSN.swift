import Foundation

/// An upstream tracker's DSN, `http(s)://KEY@HOST[:PORT][/PATH]/PROJECT`, as Sentry, Bugsink and GlitchTip give it.
package struct UpstreamDSN: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    package var scheme: String
    package var host: String
    package var port: Int?
    /// A path before the project, for a tracker under a prefix; empty for most.
    package var prefix: String
    package var project: String
    /// The public key: the user part.
    package var key: String

    /// Parses `text`.
    /// - Throws: ``ForwardError`` (`invalid-dsn`) saying what is missing.
    package init(_ text: String) throws(ForwardError) {
        let hint = "a DSN is http(s)://KEY@HOST[:PORT]/PROJECT, as the tracker's project settings show it"
        // The DSN is named with its key hidden: an error reaches logs and terminals, and the key is a credential.
        let shown = Self.redacted(text)
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { throw ForwardError(.invalidDSN, "'\(shown)' is not an http or https URL; \(hint)") }
        guard let host = components.host, !host.isEmpty else {
            throw ForwardError(.invalidDSN, "'\(shown)' names no host; \(hint)")
        }
        guard let key = components.user, !key.isEmpty else {
            throw ForwardError(.invalidDSN, "'\(shown)' has no key before the @; \(hint)")
        }
        let parts = components.path.split(separator: "/").map(String.init)
        guard let project = parts.last, !project.isEmpty else {
            throw ForwardError(.invalidDSN, "'\(shown)' names no project after the host; \(hint)")
        }
        self.scheme = scheme
        self.host = host
        self.port = components.port
        self.prefix = parts.dropLast().map { "/" + $0 }.joined()
        self.project = project
        self.key = key
    }

    /// `text` with its user part (the key) replaced by `***`, or the whole text hidden when it is no URL and may be a key.
    static func redacted(_ text: String) -> String {
        if let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://"), schemeEnd.upperBound <= at {
            return text[..<schemeEnd.upperBound] + "***" + text[at...]
        }
        // Without an @ there is no key to hide, unless the text is no URL at all (a key pasted alone).
        return text.contains("://") || text.count <= 12 ? text : "(a DSN of \(text.count) characters, hidden)"
    }

    private var origin: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port.map { ":\($0)" } ?? "")"
    }

    /// Where envelopes go: `ORIGIN[/PATH]/api/PROJECT/envelope/`.
    package var envelopeURL: String { "\(origin)\(prefix)/api/\(project)/envelope/" }

    /// The upstream without its key (`https://sentry.example.com/42`): how the outbox, `--status` and logs name it.
    package var identity: String { "\(origin)\(prefix)/\(project)" }

    /// The `X-Sentry-Auth` header.
    package func authorization(client: String) -> String {
        "Sentry sentry_version=7, sentry_key=\(key), sentry_client=\(client)"
    }

    /// The identity: a DSN's key is a credential, never printed.
    package var description: String { identity }
}
