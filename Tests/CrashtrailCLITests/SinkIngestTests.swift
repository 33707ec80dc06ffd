import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import CrashtrailTestSupport
import Foundation
import Testing

/// What the recorder's sinks hand over, wrapped as each crash reporter wraps it, is what `crashtrail ingest` reads:
/// every report gets the recorder's trail, and replays to the state the app showed.
@MainActor
@Suite("Sinks into ingest")
struct SinkIngestTests {
    static let manifestPath = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path

    /// What the sinks were last handed; a reporter keeps the last value set for each key.
    final class Handed: @unchecked Sendable {
        let lock = NSLock()
        var keys: [String: String] = [:]
        var text = ""
        var binary: [UInt8] = []
        var deliveries = 0
    }

    /// Records seeded steps with a keys, a text and a binary sink on, and returns what they were handed.
    /// - Parameters:
    ///   - count: the steps recorded.
    ///   - limits: the recorder's limits.
    ///   - keyLimit: the keys sink's limit.
    ///   - seed: the generator's seed.
    ///   - paced: wait for the sinks after each step, as an app's steps come seconds apart.
    /// - Returns: the recorder and what its sinks were handed.
    /// - Throws: what reading the manifest or recording throws.
    static func record(
        steps count: Int, limits: TrailRecorder.Limits, keyLimit: Int, seed: UInt64, paced: Bool = false
    ) throws -> (TrailRecorder, Handed) {
        let manifest = try Manifest(contentsOfFile: manifestPath)
        // The session of the .ips below: pid 321, launched at 14:45:05.
        let recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412"),
            session: Trail.Session(id: "5E55105E-0000-4000-8000-000000000321", started: "2026-11-02T14:45:05.000Z", pid: 321),
            limits: limits)
        let handed = Handed()
        recorder.addSink(
            .keys(limit: keyLimit) { keys in
                handed.lock.withLock {
                    for (key, value) in keys { handed.keys[key] = value }
                    handed.deliveries += 1
                }
            })
        recorder.addSink(.text { text in handed.lock.withLock { handed.text = text } })
        recorder.addSink(.binary { bytes in handed.lock.withLock { handed.binary = bytes } })
        var generator = RandomStepGenerator(manifest: manifest, seed: seed)
        for step in generator.steps(count: count) {
            try recorder.record(step)
            if paced { recorder.waitForSinks() }
        }
        recorder.waitForSinks()
        return (recorder, handed)
    }

    @Test("Sink output in Crashlytics, Sentry, KSCrash and .ips + sidecar reports ingests and replays to the recorded state")
    func ingestsEveryReporter() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("sinks")
        defer { folder.remove() }
        let (recorder, handed) = try Self.record(steps: 120, limits: .init(maximumSteps: 60), keyLimit: 1024, seed: 42)
        let trail = recorder.trail(stampingFinal: true)
        #expect(try TrailCodec(manifests: [try Manifest(contentsOfFile: Self.manifestPath)]).decode(text: handed.text) == trail)

        // Wrapped as each reporter wraps its values
        let keyItems = handed.keys.sorted { $0.key < $1.key }.map { #"{"key":"\#($0.key)","value":"\#($0.value)"}"# }.joined(separator: ",")
        try folder.write(
            #"{"event_id":"c1","issue_id":"i1","bundle_identifier":"com.example.piratebay","event_timestamp":"2026-11-02 14:50:00 UTC","application":{"display_version":"3.1.0","build_version":"412"},"custom_keys":[{"key":"locale","value":"en_US"},\#(keyItems)],"threads":[{"crashed":true,"signal_name":"SIGSEGV","frames":[{"library":"PirateBay","symbol":"main","offset":"16"}]}]}"#
                + "\n", to: "reports/crashlytics.ndjson")
        try folder.write(
            #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":"2026-11-02T14:50:00Z","release":"com.example.piratebay@3.1.0+412","exception":{"values":[{"type":"EXC_BAD_ACCESS","value":"boom","mechanism":{"type":"mach","meta":{"signal":{"name":"SIGSEGV"}}}}]},"contexts":{"app":{"app_identifier":"com.example.piratebay"},"crashtrail":{"trail":"\#(handed.text)"}}}"#,
            to: "reports/sentry-event.json")
        try folder.write(
            #"{"report":{"id":"KS-1","timestamp":1762094400},"system":{"CFBundleIdentifier":"com.example.piratebay","CFBundleShortVersionString":"3.1.0","CFBundleVersion":"412","system_name":"iOS","system_version":"18.1","machine":"iPhone15,2","process_id":321},"crash":{"error":{"type":"signal","signal":{"name":"SIGSEGV","signal":11}},"threads":[{"crashed":true,"backtrace":{"contents":[{"object_name":"PirateBay","symbol_name":"main","instruction_addr":4096,"object_addr":0}]}}]},"user":{"crashtrail":"\#(handed.text)"}}"#,
            to: "reports/kscrash.json")
        let event =
            #"{"event_id":"fedcba9876543210fedcba9876543210","exception":{"values":[{"type":"E","value":"v"}]},"contexts":{"app":{"app_identifier":"com.example.piratebay"}}}"#
        let envelope =
            Array(
                (#"{"event_id":"fedcba9876543210fedcba9876543210"}"# + "\n" + #"{"type":"event","length":\#(event.utf8.count)}"# + "\n"
                    + event + "\n"
                    + #"{"type":"attachment","length":\#(handed.binary.count),"filename":"crashtrail.ctr"}"# + "\n").utf8) + handed.binary
            + [0x0A]
        try Data(envelope).write(to: folder.url.appendingPathComponent("reports/sentry.envelope"))
        try folder.write(
            #"{"bug_type":"309","incident_id":"A1B2C3D4-0000-4000-8000-000000000321","app_version":"3.1.0","build_version":"412","bundleID":"com.example.piratebay","os_version":"iPhone OS 18.1 (22B83)","timestamp":"2026-11-02 14:50:00.00 +0000","name":"PirateBay"}"#
                + "\n"
                + #"{"procLaunch":"2026-11-02 14:45:05.0000 +0000","captureTime":"2026-11-02 14:50:00.0000 +0000","pid":321,"modelCode":"iPhone15,2","exception":{"type":"EXC_CRASH","signal":"SIGABRT"},"faultingThread":0,"threads":[{"triggered":true,"frames":[{"imageIndex":0,"imageOffset":4096,"symbol":"abort"}]}],"usedImages":[{"name":"libsystem_c.dylib","path":"/usr/lib/system/libsystem_c.dylib"}]}"#,
            to: "reports/crash.ips")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("trails"), withIntermediateDirectories: true)
        try Data(handed.binary).write(to: folder.url.appendingPathComponent("trails/session.ctr"))

        // When they are ingested
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let ingest = try runner.run(
            ["ingest", "reports", "--trails", "trails", "--manifest", Self.manifestPath, "--store", store, "--strict", "--quiet"],
            directory: folder.url)
        #expect(ingest.status == 0, "\(ingest.stderr)")

        // Then every report has the recorder's trail, and its replay reaches the state the app showed
        let listed = try runner.run(["list", "--reports", "--format", "json", "--store", store])
        let reports = try #require(try JSONParser.parse(listed.stdout).arrayValue)
        #expect(reports.count == 5, "\(listed.stdout)")
        for report in reports {
            let id = try #require(report.objectValue?["id"]?.stringValue)
            let replay = try runner.run(["replay", id, "--format", "json", "--store", store])
            #expect(replay.status == 0, "\(id): \(replay.stderr)")
            let value = try JSONParser.parse(replay.stdout)
            #expect(value.objectValue?["verified"] == .bool(true), "\(id)")
            #expect(value.objectValue?["final"] == trail.final?.jsonValue, "\(id)")
            #expect(value.objectValue?["steps"]?.arrayValue?.count == trail.steps.count, "\(id)")
        }
    }

    @Test("A reporter's keys, set one by one over a session, always hold the latest trail: parts a shorter trail drops are cleared")
    func keysStayConsistent() throws {
        let manifest = try Manifest(contentsOfFile: Self.manifestPath)
        let codec = TrailCodec(manifests: [manifest])
        var shrank = 0
        for seed in UInt64(0)..<20 {
            let (recorder, handed) = try Self.record(steps: 80, limits: .init(maximumSteps: 12), keyLimit: 48, seed: seed, paced: true)
            let live = handed.keys.filter { !$0.value.isEmpty }.count
            if live < handed.keys.count { shrank += 1 }
            #expect(try codec.decode(keys: handed.keys) == recorder.trail(stampingFinal: true), "seed \(seed)")
        }
        #expect(shrank > 0, "no trail got shorter, so clearing was not exercised")
    }
}
