import Testing

@testable import CrashtrailForward

/// DSNs, what an upstream's answer means, and the backoff.
@Suite("Upstreams")
struct UpstreamTests {
    @Test("A DSN gives the envelope URL and an identity without its key; a wrong one says what is missing")
    func dsns() throws {
        let dsn = try UpstreamDSN("https://abc123@o1.ingest.sentry.io/42")
        #expect(dsn.envelopeURL == "https://o1.ingest.sentry.io/api/42/envelope/")
        #expect(dsn.identity == "https://o1.ingest.sentry.io/42")
        #expect(!"\(dsn)".contains("abc123"))
        #expect(dsn.authorization(client: "c/1").contains("sentry_key=abc123"))
        let prefixed = try UpstreamDSN("http://k@127.0.0.1:9000/sentry/7")
        #expect(prefixed.envelopeURL == "http://127.0.0.1:9000/sentry/api/7/envelope/")
        for (text, says) in [
            ("ftp://k@host/1", "not an http or https URL"), ("https://host/1", "no key"), ("https://k@host/", "no project"),
            ("nonsense", "not an http"),
        ] {
            let error = #expect(throws: ForwardError.self) { try UpstreamDSN(text) }
            #expect(error?.message.contains(says) == true, "\(text): \(error?.message ?? "")")
            #expect(error?.code == .invalidDSN)
        }
    }

    @Test("2xx delivers; 429 waits as Retry-After or X-Sentry-Rate-Limits says; 5xx and 408 retry; other 4xx are set aside")
    func answers() {
        #expect(UpstreamAnswer.classify(status: 200, headers: [:], body: "{}") == .delivered)
        #expect(
            UpstreamAnswer.classify(status: 429, headers: ["retry-after": "7"], body: "") == .rateLimited(seconds: 7, reason: "HTTP 429"))
        #expect(
            UpstreamAnswer.classify(
                status: 429, headers: ["x-sentry-rate-limits": "60:transaction:key, 120:error;default:organization"], body: "")
                == .rateLimited(seconds: 120, reason: "HTTP 429"))
        #expect(
            UpstreamAnswer.classify(status: 429, headers: ["x-sentry-rate-limits": "30::organization"], body: "")
                == .rateLimited(seconds: 30, reason: "HTTP 429"))
        #expect(UpstreamAnswer.classify(status: 429, headers: [:], body: "") == .rateLimited(seconds: 60, reason: "HTTP 429"))
        #expect(UpstreamAnswer.classify(status: 503, headers: [:], body: "down") == .failed(reason: "HTTP 503: down"))
        #expect(UpstreamAnswer.classify(status: 408, headers: [:], body: "") == .failed(reason: "HTTP 408"))
        for status in [400, 401, 403, 413] {
            #expect(UpstreamAnswer.classify(status: status, headers: [:], body: "no") == .rejected(reason: "HTTP \(status): no"))
        }
    }

    @Test("The backoff doubles from its base to its ceiling, jittered between half and all of it")
    func backoff() {
        let backoff = ForwardBackoff(base: 1, maximum: 600)
        #expect(backoff.delay(afterAttempts: 1, unit: 1) == 1)
        #expect(backoff.delay(afterAttempts: 4, unit: 1) == 8)
        #expect(backoff.delay(afterAttempts: 4, unit: 0) == 4)
        #expect(backoff.delay(afterAttempts: 40, unit: 1) == 600)
        #expect(backoff.delay(afterAttempts: 0, unit: 0.5) == 0.75)
    }
}
