import Testing

@testable import CrashtrailServer

/// How `serve` finds a request's project key in its headers (SPEC section 14), in the forms Sentry's clients send.
@Suite("Project keys in request headers")
struct ProjectKeyTests {
    @Test(
        "The sentry_key of X-Sentry-Auth, wherever the client puts it",
        arguments: [
            // sentry-python 2 (`Auth.to_header()`), the key first.
            ("Sentry sentry_key=0123456789abcdef, sentry_version=7, sentry_client=sentry.python/2.0", "0123456789abcdef"),
            // Objective-C clients: no spaces, the key among a timestamp and a secret.
            ("Sentry sentry_version=7,sentry_timestamp=1700000000,sentry_key=abc,sentry_secret=s,sentry_client=c/1", "abc"),
            ("Sentry sentry_version=7, sentry_client=c/1, sentry_timestamp=7, sentry_key=abc, sentry_secret=s", "abc"),
            // The scheme in any case, spaces and tabs around names and values.
            ("  sentry\tsentry_key = abc\t, sentry_version=7", "abc"),
            ("SENTRY sentry_version=7 ,  sentry_key=abc  ", "abc"),
            // A pair with nothing after its `=` is passed over; a later key still counts.
            ("Sentry sentry_key=, sentry_key=abc", "abc"),
            ("Sentry =abc, sentry_key=def", "def"),
            // The first `=` parts name from value: the value may hold more.
            ("Sentry sentry_key=a=b", "a=b"),
            // A key of non-ASCII bytes comes back as they are.
            ("Sentry sentry_key=clé", "clé"),
            // The first key counts.
            ("Sentry sentry_key=a, sentry_key=b", "a"),
            // Only HTTP's whitespace is trimmed: a no-break space is part of the key, which then matches none.
            ("Sentry sentry_key=abc\u{A0}", "abc\u{A0}"),
        ])
    func sentryAuth(header: String, key: String) {
        #expect(ProjectKey.fromSentryAuth(header) == key)
    }

    @Test(
        "No key where the header has none, or is not Sentry's",
        arguments: [
            "", "Sentry", "Sentry ", "Bearer abc", "Sentr sentry_key=abc", "Sentry sentry_version=7",
            "Sentry sentry_key", "Sentry sentry_key=   ", "Sentry sentry_keys=abc", "Sentry Sentry_Key=abc", "Sentry sentry_key=\t, x=1",
            // The first `=` ends the name, so this pair's name is empty.
            "Sentry =sentry_key=abc", " \t ", "\nSentry sentry_key=abc",
        ])
    func noSentryKey(header: String) {
        #expect(ProjectKey.fromSentryAuth(header) == nil)
    }

    @Test(
        "The key of a Bearer header, and none elsewhere",
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("  BEARER   abc  ", "abc"), ("Bearer a b", "a b"), ("Bearer abc\t", "abc"),
            ("Bearer", nil), ("Bearer ", nil), ("Bearer    ", nil), ("Bearerabc", nil), ("Bearer\tabc", nil),
            ("Sentry sentry_key=abc", nil),
            ("Basic YWJjOg==", nil), ("", nil),
        ] as [(String, String?)])
    func bearer(header: String, key: String?) {
        #expect(ProjectKey.fromBearer(header) == key)
    }

    @Test("The key of a DSN's user part")
    func dsn() {
        #expect(ProjectKey.fromDSN("http://abc@127.0.0.1:9000/1") == "abc")
        #expect(ProjectKey.fromDSN("http://127.0.0.1:9000/1") == nil)
    }
}
