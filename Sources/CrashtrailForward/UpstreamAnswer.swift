import Foundation

/// What an upstream's answer to an envelope means for the report in it.
package enum UpstreamAnswer: Hashable, Sendable {
    /// Taken (2xx).
    case delivered
    /// Not now: 429 with how long to wait (`Retry-After` or `X-Sentry-Rate-Limits`), and the whole upstream waits.
    case rateLimited(seconds: Double, reason: String)
    /// Failed for now (5xx, 408, a connection refused or cut): try again after a backoff.
    case failed(reason: String)
    /// Can never succeed as it is (400, 401, 403, 413 and the other 4xx): set aside with the reason.
    case rejected(reason: String)

    /// The default wait for a 429 that says nothing of how long.
    package static let defaultRateLimit = 60.0

    /// Classifies an HTTP answer.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the answer's headers, names lowercased.
    ///   - body: the start of its body, for the reason.
    /// - Returns: what the answer means for the report.
    package static func classify(status: Int, headers: [String: String], body: String) -> UpstreamAnswer {
        let detail = body.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)
        let reason = "HTTP \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        switch status {
        case 200..<300:
            return .delivered
        case 429:
            let wait = rateLimit(headers["x-sentry-rate-limits"]) ?? retryAfter(headers["retry-after"]) ?? defaultRateLimit
            return .rateLimited(seconds: wait, reason: reason)
        case 408, 500...:
            return .failed(reason: reason)
        case 300..<400:
            let location = headers["location"].flatMap { URLComponents(string: $0) }.map { "\($0.scheme ?? "?")://\($0.host ?? "?")" }
            return .rejected(
                reason:
                    "HTTP \(status): the upstream redirects\(location.map { " to \($0)" } ?? ""), which crashtrail does not follow (it would carry the report and the key); give the DSN of the address it redirects to"
            )
        default:
            return .rejected(reason: reason)
        }
    }

    /// `Retry-After` in seconds (a number; an HTTP date is taken as the default wait).
    static func retryAfter(_ value: String?) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return Double(value).map { max(0, $0) } ?? defaultRateLimit
    }

    /// The longest wait `X-Sentry-Rate-Limits` puts on errors: `SECONDS:CATEGORIES:SCOPE, …`, where no category means
    /// all of them.
    static func rateLimit(_ value: String?) -> Double? {
        guard let value, !value.isEmpty else { return nil }
        var longest: Double?
        for limit in value.split(separator: ",") {
            let fields = limit.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard let seconds = fields.first.flatMap({ Double($0) }) else { continue }
            let categories = fields.count > 1 ? fields[1].split(separator: ";").map(String.init) : []
            if categories.isEmpty || categories.contains("error") || categories.contains("default") {
                longest = max(longest ?? 0, seconds)
            }
        }
        return longest
    }
}
