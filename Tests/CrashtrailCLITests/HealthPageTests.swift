import CrashtrailCore
import CrashtrailReports
import CrashtrailService
import CrashtrailTestSupport
import Foundation
import Testing

/// Release health end to end (SPEC section 20): sessions and the trails of sessions that did not crash sent to a real
/// `crashtrail serve`, then `health`, `paths --rate` and the site's health page in headless Chromium.
@Suite("Release health, end to end")
struct HealthPageTests {
    static let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
    static let releases = [
        ("com.example.piratebay@3.0.0+400", 400, 2), ("com.example.piratebay@3.0.1+405", 400, 9),
        ("com.example.piratebay@3.1.0+412", 400, 4),
    ]

    /// A `sessions` item of `total` sessions of `release`, `crashed` of them crashed, as an envelope.
    static func sessionsEnvelope(release: String, total: Int, crashed: Int) -> [UInt8] {
        // An hour ago: serve counts, as Sentry does, sessions started in the last 5 days.
        let started = Timestamp.rfc3339(milliseconds: TimeSource.system.now() - 3_600_000)
        let item =
            #"{"attrs":{"release":"\#(release)","environment":"production"},"aggregates":[{"started":"\#(started)","exited":\#(total - crashed),"crashed":\#(crashed)}]}"#
        return Array("{}\n{\"type\":\"sessions\",\"length\":\(item.utf8.count)}\n\(item)\n".utf8)
    }

    /// The sample trails of the 3.1.0 release, as the trails of sessions that did not crash: `count` of them, cycling
    /// through the samples, each sent at a sample rate of 1/2.
    static func cleanTrails(count: Int) throws -> [Trail] {
        let samples = ["checkout-crash", "sign-in-interrupted", "unlinkable-screens"].map {
            PackageRoot.url.appendingPathComponent("Samples/trails-golden/trails/\($0).json")
        }
        let trails = try samples.map { try Trail(json: Array(try Data(contentsOf: $0))) }
        return (0..<count).map { index in
            var trail = trails[index % trails.count]
            trail.session.id = String(format: "00000000-0000-4000-8000-%012d", index)
            trail.session.ended = index % 4 == 0 ? .killed : .exited
            trail.session.sampleRate = Trail.SampleRate(0.5)
            trail.final = nil
            return trail
        }
    }

    @Test(
        "Sessions and sampled trails sent to serve give health, paths --rate and a health page that loads",
        .enabled(if: Browser.located != nil || ConformanceSuite.isRequired, "Chromium is not installed: apt-get install chromium"))
    func endToEnd() throws {
        let browser = try #require(Browser.located, "CI needs Chromium to test the pages: apt-get install chromium")
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("health")
        defer { folder.remove() }
        let root = PackageRoot.url.path
        let ingest = try runner.run(
            ["ingest", "\(root)/Samples/reports", "--trails", "\(root)/Samples/trails", "--manifest", Self.manifest, "--quiet"],
            directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")

        // Given a service, sessions of three releases and 30 sampled trails of sessions that did not crash
        let serve = try ServeProcess(
            runner: runner, arguments: ["--store", "crashtrail.sqlite", "--manifest", Self.manifest, "--quiet"], directory: folder.url)
        let auth = ["X-Sentry-Auth": "Sentry sentry_key=\(serve.key)"]
        for (release, total, crashed) in Self.releases {
            let answer = LoopbackConnection.request(
                port: serve.port, "POST", "/api/\(serve.projectID)/envelope/", headers: auth,
                body: Self.sessionsEnvelope(release: release, total: total, crashed: crashed))
            #expect(answer?.status == 200, "\(answer?.text ?? "no answer")")
        }
        // An envelope whose event is refused still counts its session: Sentry's SDKs do not send a refused one again
        let started = Timestamp.rfc3339(milliseconds: TimeSource.system.now() - 3_600_000)
        let session =
            #"{"sid":"refused-event","init":true,"started":"\#(started)","status":"exited","attrs":{"release":"com.example.piratebay@3.0.0+400"}}"#
        let broken = Array(
            "{}\n{\"type\":\"event\",\"length\":9}\n{not json\n{\"type\":\"session\",\"length\":\(session.utf8.count)}\n\(session)\n".utf8)
        let refusedEvent = LoopbackConnection.request(
            port: serve.port, "POST", "/api/\(serve.projectID)/envelope/", headers: auth, body: broken)
        #expect(refusedEvent?.status == 400, "\(refusedEvent?.text ?? "no answer")")
        let trails = try Self.cleanTrails(count: 30)
        for trail in trails {
            let answer = LoopbackConnection.request(
                port: serve.port, "POST", "/api/\(serve.projectID)/trails", headers: ["Authorization": "Bearer \(serve.key)"],
                body: trail.canonicalJSON)
            #expect(answer?.status == 200 && answer?.text.contains(#""counted":true"#) == true, "\(answer?.text ?? "no answer")")
        }
        // A trail of an app whose manifest serve does not have cannot be counted: refused, naming what is missing
        var foreign = trails[0]
        foreign.app.bundleID = "org.example.unknown"
        let refused = LoopbackConnection.request(
            port: serve.port, "POST", "/api/\(serve.projectID)/trails", headers: ["Authorization": "Bearer \(serve.key)"],
            body: foreign.canonicalJSON)
        #expect(refused?.status == 400 && refused?.text.contains("manifest of org.example.unknown") == true, "\(refused?.text ?? "")")
        serve.stop(SIGTERM)
        serve.finish()

        // Then health gives each release's crash-free sessions
        let health = try runner.run(["health", "--format", "json"], directory: folder.url)
        try #require(health.status == 0, "\(health.stderr)")
        let releases = try #require(
            try JSONParser.parse(Array(health.stdout.utf8), decimalKeys: ["crashFreeSessions", "crashFreeUsers"]).arrayValue)
        #expect(releases.count == 3)
        #expect(releases.first?["sessions"]?.intValue == 401, "\(health.stdout)")
        #expect(health.stdout.contains(#""crashFreeSessions":97.75,"crashFreeUsers":null,"crashed":9"#), "\(health.stdout)")

        // And paths --rate counts each sampled trail twice, each crash once
        let rates = try runner.run(
            ["paths", "--rate", "--release", "com.example.piratebay@3.1.0+412", "--min-sessions", "1", "--format", "json"],
            directory: folder.url)
        try #require(rates.status == 0, "\(rates.stderr)")
        #expect(rates.stderr.contains("scaled by 1 / sample rate"))
        let rows = try #require(
            try JSONParser.parse(Array(rates.stdout.utf8), decimalKeys: ["sessions", "rate", "low", "high", "lift"]).arrayValue)
        let manifest = try Manifest(yaml: String(contentsOfFile: Self.manifest, encoding: .utf8), source: "piratebay.yml")
        var clean: [PathVisits.Path: Int] = [:]
        for trail in trails {
            for path in PathVisits(screens: ScreenPath.names(of: trail, manifest: manifest)).paths { clean[path, default: 0] += 1 }
        }
        #expect(!rows.isEmpty)
        for row in rows {
            let object = try #require(row.objectValue)
            #expect(Set(object.keys) == ["kind", "screens", "sessions", "crashed", "rate", "low", "high", "lift"])
            let screens = try #require(object["screens"]?.arrayValue).compactMap(\.stringValue)
            let sessions = try #require(object["sessions"]?.intValue)
            let crashed = try #require(object["crashed"]?.intValue)
            // Sessions are in billionths here (the decimal keys): 2 for each sampled trail, 1 for each crash.
            #expect(sessions == (Int64(2 * (clean[PathVisits.Path(screens)] ?? 0)) + crashed) * 1_000_000_000, "\(screens)")
        }

        // And the site has a health page with the chart and the riskiest transitions, linked from the index
        let site = try runner.run(["report", "--html", "site", "--manifest", Self.manifest, "--quiet"], directory: folder.url)
        try #require(site.status == 0, "\(site.stderr)")
        let page = folder.url.appendingPathComponent("site/health.html")
        let dom = try browser.dom(of: page)
        for (release, _, _) in Self.releases { #expect(dom.contains(release)) }
        #expect(dom.contains("<polyline"))
        #expect(dom.contains("Riskiest transitions"))
        #expect(try browser.dom(of: folder.url.appendingPathComponent("site/index.html")).contains("href=\"health.html\""))
        try browser.screenshot(of: page, named: "site-health")
        // And a group whose crashes have recorded trails names its most over-represented transition
        let groups = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/groups").path)
        let named = try groups.filter {
            try String(contentsOf: folder.url.appendingPathComponent("site/groups/\($0)"), encoding: .utf8)
                .contains("Most over-represented transition")
        }
        #expect(!named.isEmpty)
        // And serve's live page of that group names it too
        let service = try TriageService(
            location: StoreLocation(folder.url.appendingPathComponent("crashtrail.sqlite").path), creating: false)
        let name = try #require(named.first)
        let live = try #require(try service.sitePage("groups/\(name)"))
        #expect(live.contains("Most over-represented transition"))
    }
}
