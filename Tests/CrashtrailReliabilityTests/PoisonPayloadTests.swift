import CrashtrailTestSupport
import Foundation
import Testing

/// Payloads of a few bytes that once stopped the whole ingest job (regression tests for findings F3 and F4).
///
/// Each stopped the whole job with a Swift runtime trap, so no run could ever finish over a folder holding one.
/// Each runs in its own `crashtrail ingest`, so one crash cannot hide another.
@Suite("Poison payloads")
struct PoisonPayloadTests {
    static let payloads: [(name: String, text: String)] = [
        // F3: an envelope item length near Int.max overflowed `afterHeader + length`.
        (
            "envelope-length-max.envelope",
            #"{"event_id":"00000000000000000000000000000001"}"# + "\n" + #"{"type":"event","length":9223372036854775807}"# + "\n{}\n"
        ),
        (
            "envelope-length-huge.envelope",
            #"{"event_id":"00000000000000000000000000000001"}"# + "\n" + #"{"type":"event","length":9223372036854775000}"# + "\n{}\n"
        ),
        // F4: an all-digit timestamp beyond Int64 milliseconds trapped converting the Double.
        ("kscrash-timestamp.json", #"{"report":{"id":"KS-big","timestamp":"100000000000000000000000000000"},"crash":{}}"#),
        ("crashlytics-timestamp.json", #"{"event_id":"c","issue_id":"i","event_timestamp":"99999999999999999999999.5"}"#),
        (
            "sentry-timestamp.json",
            #"{"event_id":"00000000000000000000000000000002","exception":{},"timestamp":"1000000000000000000000000"}"#
        ),
        ("crashtrail-time.json", #"{"crashtrail":1,"id":"t","time":"1000000000000000000000000"}"#),
        (
            "ips-launch.ips",
            #"{"bug_type":"309","incident_id":"I-1"}"# + "\n"
                + #"{"procLaunch":"100000000000000000000000000","captureTime":"900000000000000000000000000000"}"#
        ),
        ("kscrash-start.json", #"{"report":{"id":"KS-2"},"system":{"app_start_time":"1000000000000000000000000000"},"crash":{}}"#),
    ]

    @Test("A hostile payload is refused or stored, and the job goes on", arguments: payloads.map(\.name))
    func poison(_ name: String) throws {
        let folder = try TemporaryFolder("crashtrail-poison")
        defer { folder.remove() }
        let text = try #require(Self.payloads.first { $0.name == name }).text
        try folder.write(text, to: "in/\(name)")
        try folder.write(#"{"crashtrail":1,"id":"neighbour","time":"2026-11-02T14:50:00Z"}"#, to: "in/zz-neighbour.json")
        let (result, summary) = try ReliabilityCLI.ingest(
            [folder.url.appendingPathComponent("in").path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: folder.url.appendingPathComponent("q"), in: folder.url)
        #expect(result.status == 0, "\(name): \(ReliabilityCLI.describe(result))")
        #expect(ReliabilityCLI.count(summary, "stored") + ReliabilityCLI.count(summary, "rejected") == 2, "\(result.stdout)")
    }
}
