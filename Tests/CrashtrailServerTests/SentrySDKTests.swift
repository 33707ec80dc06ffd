import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Sentry's own Python SDK (`sentry-sdk` from PyPI), its DSN pointed at `crashtrail serve`: a real client of the
/// protocol, written by nobody here.
@Suite("crashtrail serve: Sentry's Python SDK")
struct SentrySDKTests {
    /// Whether `python3` can import `sentry_sdk` (`.ci/run` installs it).
    static let sdkAvailable: Bool = {
        guard let python = CommandRunner.which("python3"),
            let result = try? python.run(["-c", "import sentry_sdk"])
        else { return false }
        return result.status == 0
    }()

    static let script = """
        import sys, sentry_sdk
        dsn, ctr_path, ct1 = sys.argv[1], sys.argv[2], sys.argv[3]
        sentry_sdk.init(dsn=dsn, default_integrations=False, auto_enabling_integrations=False,
                        release="com.example.piratebay@3.1.0+310")
        with sentry_sdk.new_scope() as scope:
            scope.set_context("crashtrail", {"trail": ct1})
            try:
                1 / 0
            except ZeroDivisionError:
                print(sentry_sdk.capture_exception())
        with sentry_sdk.new_scope() as scope:
            scope.add_attachment(bytes=open(ctr_path, "rb").read(), filename="crashtrail.ctr")
            try:
                {}["missing"]
            except KeyError:
                print(sentry_sdk.capture_exception())
        sentry_sdk.capture_message("a message event carries no crash")
        sys.exit(0 if sentry_sdk.flush(timeout=20) is None else 0)
        """

    @Test(
        "Events sent by sentry-sdk with a trail as a context and as a crashtrail.ctr attachment are stored with their trails and replay",
        .enabled(if: sdkAvailable || ConformanceSuite.isRequired, "python3 cannot import sentry_sdk (pip install sentry-sdk)"))
    func pythonSDK() throws {
        // Given a service with the sample manifest, and a trail as ct1: text
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let python = try #require(CommandRunner.which("python3"), "python3 is not on the PATH")
        let folder = try TemporaryFolder("crashtrail-serve")
        defer { folder.remove() }
        let manifest = ServerFixture.samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path
        let trail = ServerFixture.samples.appendingPathComponent("trails-golden/trails/checkout-crash.json").path
        let encoded = try runner.run(["trail", "encode", trail, "--manifest", manifest, "--format", "ct1"])
        try #require(encoded.status == 0, "\(encoded.stderr)")
        let ct1 = encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let store = folder.url.appendingPathComponent("store.sqlite")
        let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path, "--manifest", manifest], directory: folder.url)
        defer { serve.stop(SIGTERM) }
        let scriptURL = try folder.write(Self.script, to: "send.py")

        // When
        let sent = try python.run([
            scriptURL.path, serve.dsn, ServerFixture.samples.appendingPathComponent("trails/ips-joined-by-pid.ctr").path, ct1,
        ])

        // Then
        try #require(sent.status == 0, "\(sent.stderr)")
        let eventIDs = sent.stdout.split(separator: "\n").map(String.init)
        try #require(eventIDs.count == 2, "the SDK printed \(sent.stdout)")
        let service = try TriageService(location: StoreLocation(store.path), creating: false)
        var records: [ReportRecord] = []
        for _ in 0..<200 where records.count < 3 {
            records = try service.store.allRecords()
            Thread.sleep(forTimeInterval: 0.05)
        }
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0) })
        let context = try #require(byID[eventIDs[0]], "stored: \(byID.keys.sorted())")
        let attachment = try #require(byID[eventIDs[1]], "stored: \(byID.keys.sorted())")
        #expect(context.trailSource == .embedded)
        #expect(context.exceptionType == "ZeroDivisionError")
        #expect(attachment.trailSource == .embedded)
        #expect(attachment.trailSteps == 25)
        #expect(records.count == 3, "the message event is stored as a report without a crash frame: \(records.map(\.exceptionType))")
        for id in eventIDs {
            let replay = try runner.run(["replay", id, "--store", store.path, "--format", "json"])
            #expect(replay.status == 0, "\(replay.stderr)")
        }
    }
}
