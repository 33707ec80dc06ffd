import CrashtrailForward
import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail serve --forward` in front of a real tracker: Bugsink (PyPI `bugsink`), which speaks Sentry's protocol
/// and validates every event against Sentry's event schema (`VALIDATE_ON_DIGEST = strict`), started on loopback.
@Suite("Forwarding to Bugsink", .serialized)
struct BugsinkForwardTests {
    static let fixtures: URL =
        ProcessInfo.processInfo.environment["CRASHTRAIL_FIXTURES"].map { URL(fileURLWithPath: $0) }
        ?? PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    static let fixturesFound = FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("metrickit").path)
    static let sdkAvailable = SentrySDKTests.sdkAvailable
    static let enabled = (BugsinkServer.isAvailable && sdkAvailable && fixturesFound) || ConformanceSuite.isRequired
    static let skipped: Comment = "bugsink or sentry-sdk is not installed (pip install bugsink sentry-sdk), or ../shared/fixtures is absent"
    static let manifest = ServerFixture.samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path

    /// Posts `bytes` to serve's `/api/ID/PATH` with the project's key (by `curl`); the answer's status and body.
    static func post(_ bytes: [UInt8], to path: String, serve: ServeProcess) throws -> (Int, String) {
        let curl = try #require(CommandRunner.which("curl"), "curl is not on the PATH")
        let result = try curl.run(
            [
                "-s", "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(serve.key)", "--data-binary", "@-",
                "http://127.0.0.1:\(serve.port)/api/\(serve.projectID)/\(path)",
            ], stdin: bytes)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n") + result.stderr)
    }

    /// Waits until the store's outbox for `upstream` has delivered `count` reports and none waits, for at most
    /// `timeout` seconds.
    static func waitForDelivery(store: String, upstream: String, count: Int, timeout: Double = 60) throws -> ForwardStatus? {
        let service = try TriageService(location: StoreLocation(store), creating: false)
        let deadline = Date().addingTimeInterval(timeout)
        var status: ForwardStatus?
        while Date() < deadline {
            status = try service.forwardingStatus().first { $0.upstream == upstream }
            if let status, status.delivered + status.setAside.values.reduce(0, +) >= count, status.waiting + status.retrying == 0 {
                return status
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return status
    }

    /// Bugsink's events of these report IDs, by event ID, each with how many times it is stored.
    static func received(_ bugsink: BugsinkServer) throws -> [String: (count: Int, data: [String: Any])] {
        var byID: [String: (count: Int, data: [String: Any])] = [:]
        for event in try bugsink.events() {
            byID[event.id] = ((byID[event.id]?.count ?? 0) + 1, event.data)
        }
        return byID
    }

    @Test(
        "Reports of every format posted to serve, and events sent by Sentry's own SDK, reach Bugsink once, with the trail as breadcrumbs, its context and tags",
        .enabled(if: enabled, skipped))
    func arrival() throws {
        // Given Bugsink, and serve forwarding to it
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let bugsink = try BugsinkServer()
        defer { bugsink.stop() }
        let folder = try TemporaryFolder("crashtrail-forward")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let serve = try ServeProcess(
            runner: runner,
            arguments: [
                "--store", store, "--manifest", Self.manifest, "--forward", bugsink.info.dsn, "--forward-hold", "20", "--public-url",
                "http://127.0.0.1:1", "--read-token", "operator-token-for-tests",
            ], directory: folder.url)
        defer { serve.stop(SIGTERM) }

        // When reports of five formats are posted (two real files from other projects), the .ips's trail file after it,
        // and Sentry's SDK sends an event with a trail in its context
        let files = [
            ServerFixture.samples.appendingPathComponent("reports/ips-joined-by-pid.ips"),
            ServerFixture.samples.appendingPathComponent("reports/kscrash-user-ct1.json"),
            ServerFixture.samples.appendingPathComponent("reports/crashtrail-ct1-text.json"),
            Self.fixtures.appendingPathComponent("metrickit/meter-real-ios14-2crashes.json"),
            Self.fixtures.appendingPathComponent("kscrash/sentrycrash-bad-access-breadcrumbs.json"),
            Self.fixtures.appendingPathComponent("ips/idb-xctest-sim-ios15-breakpoint.ips"),
        ]
        for file in files {
            let (status, body) = try Self.post(Array(try Data(contentsOf: file)), to: "reports", serve: serve)
            try #require(status == 200, "\(file.lastPathComponent): \(status) \(body)")
        }
        let trail = Array(try Data(contentsOf: ServerFixture.samples.appendingPathComponent("trails/ips-joined-by-pid.ctr")))
        let (trailStatus, trailBody) = try Self.post(trail, to: "trails", serve: serve)
        try #require(trailStatus == 200, "trail: \(trailStatus) \(trailBody)")
        let python = try #require(CommandRunner.which("python3"))
        let ct1 = try runner.run([
            "trail", "encode", ServerFixture.samples.appendingPathComponent("trails-golden/trails/checkout-crash.json").path, "--manifest",
            Self.manifest, "--format", "ct1",
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let script = try folder.write(
            """
            import sys, sentry_sdk
            sentry_sdk.init(dsn=sys.argv[1], default_integrations=False, auto_enabling_integrations=False,
                            release="com.example.piratebay@3.1.0+310")
            sentry_sdk.add_breadcrumb(category="ui.click", message="tapped pay")
            with sentry_sdk.new_scope() as scope:
                scope.set_context("crashtrail", {"trail": sys.argv[2]})
                scope.set_tag("plan", "pro")
                try:
                    1 / 0
                except ZeroDivisionError:
                    print(sentry_sdk.capture_exception())
            sentry_sdk.flush(timeout=20)
            """, to: "send.py")
        let sent = try python.run([script.path, "http://\(serve.key)@127.0.0.1:\(serve.port)/\(serve.projectID)", ct1])
        try #require(sent.status == 0, "\(sent.stderr)")

        // Then every stored report reaches Bugsink, once
        let service = try TriageService(location: StoreLocation(store), creating: false)
        let records = try service.store.allRecords()
        #expect(records.count == 8, "\(records.map(\.format))")
        let upstream = try UpstreamDSN(bugsink.info.dsn).identity
        // (the .ips waits for its trail file up to the 20 s hold: long enough on a loaded machine, where the trail's
        // request can come seconds after the crash's)
        let status = try Self.waitForDelivery(store: store, upstream: upstream, count: records.count, timeout: 120)
        #expect(status?.delivered == records.count, "\(String(describing: status)); serve: \(serve.stderr)")
        let received = try Self.received(bugsink)
        for record in records {
            let eventID = SentryEventBuilder.eventID(of: record.id)
            guard let event = received[eventID] else {
                Issue.record("report \(record.id) (\(record.format)) did not reach Bugsink")
                continue
            }
            #expect(event.count == 1, "\(record.id) stored \(event.count) times")
            let context = (event.data["contexts"] as? [String: Any])?["crashtrail"] as? [String: Any]
            #expect(context?["source"] as? String == record.trailSource.rawValue, "\(record.id)")
            let tags = event.data["tags"]
            let tagText = "\(tags ?? "")"
            #expect(tagText.contains(CrashGroup.id(ofSignature: record.signature)), "\(record.id): \(tagText)")
            let crumbs = ((event.data["breadcrumbs"] as? [String: Any])?["values"] as? [[String: Any]]) ?? []
            let navigation = crumbs.filter { $0["category"] as? String == "navigation" }
            if record.trailSource.hasTrail {
                #expect(!navigation.isEmpty, "\(record.id): no navigation breadcrumbs")
                #expect(context?["steps"] as? Int == navigation.count)
                #expect((context?["links"] as? [Any])?.isEmpty == false, "\(record.id): no links")
                #expect((context?["replay"] as? String)?.hasPrefix("http://127.0.0.1:1/reports/") == true)
            } else {
                #expect(navigation.isEmpty)
            }
        }
        // /metrics counts the outbox
        let curl = try #require(CommandRunner.which("curl"))
        let metrics = try curl.run([
            "-s", "-H", "Authorization: Bearer operator-token-for-tests", "http://127.0.0.1:\(serve.port)/metrics",
        ]).stdout
        #expect(metrics.contains(#"crashtrail_forward_reports{upstream="\#(upstream)",state="delivered"} \#(records.count)"#), "\(metrics)")
        #expect(metrics.contains("crashtrail_forward_oldest_waiting_seconds"))
        // The .ips waited for its trail file and went with it; the SDK's event kept its own breadcrumb and tag
        let ips = try #require(records.first { $0.format == .ips && $0.trailSource == .joined })
        #expect(ips.trailSteps ?? 0 > 0)
        let sdk = try #require(records.first { $0.format == .sentryEnvelope || $0.format == .sentryEvent })
        let sdkEvent = try #require(received[SentryEventBuilder.eventID(of: sdk.id)]?.data)
        let sdkCrumbs = ((sdkEvent["breadcrumbs"] as? [String: Any])?["values"] as? [[String: Any]]) ?? []
        #expect(sdkCrumbs.contains { $0["message"] as? String == "tapped pay" })
        #expect("\(sdkEvent["tags"] ?? "")".contains("pro"))
    }

    @Test(
        "serve killed by SIGKILL at seeded moments while it forwards: after restarts every acknowledged report reaches Bugsink once",
        .enabled(if: enabled, skipped))
    func killedWhileForwarding() throws {
        // Given Bugsink and 30 distinct crashes
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let bugsink = try BugsinkServer()
        defer { bugsink.stop() }
        let folder = try TemporaryFolder("crashtrail-forward-kill")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let sample = try String(contentsOf: ServerFixture.samples.appendingPathComponent("reports/ips-joined-by-pid.ips"), encoding: .utf8)
        let incident = try #require(sample.firstMatch(of: /"incident_id":"([0-9A-F-]{36})"/)?.1).description
        var generator = SplitMix64(seed: 20_261_127)
        var acknowledged: [String] = []
        let arguments = ["--store", store, "--manifest", Self.manifest, "--forward", bugsink.info.dsn, "--forward-hold", "0"]

        // When serve is killed three times, each a seeded moment after ten more reports were acknowledged
        for round in 0..<3 {
            let serve = try ServeProcess(runner: runner, arguments: arguments, directory: folder.url)
            for index in 0..<10 {
                let id = String(format: "00000000-0000-4000-8000-%012d", round * 10 + index)
                let (status, body) = try Self.post(
                    Array(sample.replacingOccurrences(of: incident, with: id).utf8), to: "reports", serve: serve)
                if status == 200 { acknowledged.append(id) } else { Issue.record("\(status) \(body)") }
            }
            Thread.sleep(forTimeInterval: Double(UInt64.random(in: 0...300, using: &generator)) / 1000)
            serve.stop(SIGKILL)
            #expect(serve.signal == SIGKILL)
        }
        let serve = try ServeProcess(runner: runner, arguments: arguments, directory: folder.url)
        defer { serve.stop(SIGTERM) }

        // Then the last one sends what the killed ones left, and each report is in Bugsink once
        let upstream = try UpstreamDSN(bugsink.info.dsn).identity
        // (a report a killed serve had claimed waits for the claim's lease, 60 s, to end)
        let status = try Self.waitForDelivery(store: store, upstream: upstream, count: 30, timeout: 120)
        #expect(status?.delivered == 30, "\(String(describing: status)); \(serve.stderr)")
        let received = try Self.received(bugsink)
        #expect(acknowledged.count == 30)
        for id in acknowledged {
            #expect(received[SentryEventBuilder.eventID(of: id)]?.count == 1, "\(id)")
        }
    }

    @Test(
        "An upstream down for a while: reports wait and retry; when it is back, the outbox drains and nothing is lost",
        .enabled(if: enabled, skipped))
    func outage() throws {
        // Given Bugsink started once (its DSN known), then stopped
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("crashtrail-forward-outage")
        defer { folder.remove() }
        let bugsinkFolder = folder.url.appendingPathComponent("bugsink").path
        let first = try BugsinkServer(folder: bugsinkFolder)
        let dsn = first.info.dsn
        let port = first.port
        first.stop()
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let serve = try ServeProcess(
            runner: runner, arguments: ["--store", store, "--manifest", Self.manifest, "--forward", dsn, "--forward-hold", "0"],
            directory: folder.url)
        defer { serve.stop(SIGTERM) }

        // When five reports arrive while it is down
        for file in [
            "kscrash-user-ct1.json", "crashtrail-ct1-text.json", "sentry-event-contexts-ct1.json", "sentry-event-no-trail.json",
            "ips-joined-by-pid.ips",
        ] {
            let (status, body) = try Self.post(
                Array(try Data(contentsOf: ServerFixture.samples.appendingPathComponent("reports/\(file)"))), to: "reports", serve: serve)
            try #require(status == 200, "\(file): \(body)")
        }
        let upstream = try UpstreamDSN(dsn).identity
        let service = try TriageService(location: StoreLocation(store), creating: false)
        var retrying = 0
        // (each first send fails once the client gives up connecting, after 5 s)
        for _ in 0..<600 where retrying < 5 {
            retrying = try service.forwardingStatus().first { $0.upstream == upstream }?.retrying ?? 0
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(retrying == 5, "the reports wait, retried")

        // and it comes back on the same port and databases
        let again = try BugsinkServer(port: port, folder: bugsinkFolder)
        defer { again.stop() }

        // Then the outbox drains: each report once
        let status = try Self.waitForDelivery(store: store, upstream: upstream, count: 5, timeout: 90)
        #expect(status?.delivered == 5, "\(String(describing: status))")
        let received = try Self.received(again)
        for record in try service.store.allRecords() {
            #expect(received[SentryEventBuilder.eventID(of: record.id)]?.count == 1, "\(record.id)")
        }
    }

    @Test(
        "crashtrail forward sends what a batch ingest stored, once: a second run sends nothing; --status counts them",
        .enabled(if: enabled, skipped))
    func batchForward() throws {
        // Given the samples ingested into a store, and Bugsink
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let bugsink = try BugsinkServer()
        defer { bugsink.stop() }
        let folder = try TemporaryFolder("crashtrail-forward-batch")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let ingested = try runner.run([
            "ingest", ServerFixture.samples.appendingPathComponent("reports").path, "--trails",
            ServerFixture.samples.appendingPathComponent("trails").path, "--manifest", Self.manifest, "--store", store,
        ])
        #expect(ingested.status == 0, "\(ingested.stderr)")

        // When they are forwarded twice, the second time with a filter that selects them all again
        let first = try runner.run(["forward", "--to", bugsink.info.dsn, "--store", store, "--format", "json"])
        let second = try runner.run(["forward", "--to", bugsink.info.dsn, "--store", store, "--since", "2000-01-01"])
        let status = try runner.run(["forward", "--status", "--store", store])
        let wrong = try runner.run(["forward", "--to", "https://sentry.example.com/42", "--store", store])

        // Then each stored report is in Bugsink once
        let service = try TriageService(location: StoreLocation(store), creating: false)
        let records = try service.store.allRecords()
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(first.stdout.contains(#""delivered":\#(records.count)"#), "\(first.stdout)")
        #expect(
            second.status == 0 && second.stdout.contains("0 delivered") && second.stdout.contains("(0 newly queued)"), "\(second.stdout)")
        #expect(status.stdout.contains("delivered   \(records.count)"), "\(status.stdout)")
        #expect(!status.stdout.contains(try UpstreamDSN(bugsink.info.dsn).key), "--status never prints a key")
        #expect(wrong.status != 0 && wrong.stderr.contains("has no key before the @"), "\(wrong.stderr)")
        let received = try Self.received(bugsink)
        for record in records {
            #expect(received[SentryEventBuilder.eventID(of: record.id)]?.count == 1, "\(record.id)")
        }
    }
}
