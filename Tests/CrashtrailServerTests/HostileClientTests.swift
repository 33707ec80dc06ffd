import CrashtrailCore
import CrashtrailForward
import CrashtrailService
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import CrashtrailServer

/// `crashtrail serve` as an attacker holding only a DSN key and the network finds it (SPEC section 19).
///
/// The real process over loopback, one test per attack and per limit. Each checks the answer, that nothing of another project was
/// touched, and that every acknowledged report is stored.
@Suite("crashtrail serve: hostile clients")
struct HostileClientTests {
    /// A store with two projects, `ios` (1) and `android` (2), and a token of each kind; the CLI made them, as an
    /// operator would.
    struct Setup {
        let runner: CommandRunner
        let folder: TemporaryFolder
        let store: String
        var keys: [String] = []
        var readToken = ""
        var uploadToken = ""

        init() throws {
            runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
            folder = try TemporaryFolder("crashtrail-hostile")
            store = folder.url.appendingPathComponent("store.sqlite").path
            for name in ["ios", "android"] {
                let added = try runner.run(["project", "add", name, "--store", store], directory: folder.url)
                try #require(added.status == 0, "\(added.stderr)")
                keys.append(try #require(added.stdout.firstMatch(of: /http:\/\/([0-9a-f]{32})@/)).output.1.description)
            }
            readToken = try token(["--all-projects", "--scope", "read"])
            uploadToken = try token(["ios", "--scope", "debug-files"])
        }

        /// Makes a token with the CLI and returns it (the last line it prints).
        func token(_ arguments: [String]) throws -> String {
            let made = try runner.run(["project", "token", "add"] + arguments + ["--store", store], directory: folder.url)
            try #require(made.status == 0, "\(made.stderr)")
            return try #require(made.stdout.split(separator: "\n").last.map(String.init))
        }

        func serve(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> ServeProcess {
            try ServeProcess(
                runner: runner, arguments: ["--store", store, "--quiet"] + arguments, directory: folder.url, environment: environment)
        }

        func stored() throws -> [ReportRecord] {
            try TriageService(location: StoreLocation(store), creating: false).store.allRecords()
        }
    }

    static func auth(_ key: String) -> [String: String] { ["X-Sentry-Auth": "Sentry sentry_key=\(key), sentry_version=7"] }

    /// A new event ID of 32 hex digits.
    static func eventID(_ index: Int) -> String { String(format: "%032x", 0xC0FFEE_0000 + index) }

    @Test("A DSN key reads nothing and uploads nothing; reads are closed on loopback too, and a read token opens them")
    func dsnKeyHasNoReach() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve()
        defer { serve.stop(SIGTERM) }
        let key = setup.keys[0]

        var statuses: [String: [Int]] = [:]
        for path in ["/", "/index.html", "/api/0/groups", "/api/0/reports", "/api/0/paths", "/metrics"] {
            statuses[path] = [
                LoopbackConnection.request(port: serve.port, "GET", path)?.status ?? 0,
                LoopbackConnection.request(port: serve.port, "GET", path, headers: ["Authorization": "Bearer \(key)"])?.status ?? 0,
                LoopbackConnection.request(port: serve.port, "GET", path, headers: ["Authorization": "Bearer \(setup.readToken)"])?.status
                    ?? 0,
            ]
        }
        let chunk = Array("a chunk".utf8)
        let boundary = "hostile"
        let multipart =
            Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(ChunkedUpload.sha1(chunk))\"\r\n\r\n".utf8)
            + chunk + Array("\r\n--\(boundary)--\r\n".utf8)
        let upload = LoopbackConnection.request(
            port: serve.port, "POST", "/api/0/organizations/acme/chunk-upload/",
            headers: ["Authorization": "Bearer \(key)", "Content-Type": "multipart/form-data; boundary=\(boundary)"], body: multipart)
        let assemble = LoopbackConnection.request(
            port: serve.port, "POST", "/api/0/projects/acme/ios/files/difs/assemble/", headers: ["Authorization": "Bearer \(key)"],
            body: Array("{}".utf8))

        for (path, answers) in statuses {
            #expect(answers == [401, 403, 200], "\(path)")
        }
        #expect(upload?.status == 403 && upload?.text.contains("a DSN key only sends reports") == true, "\(upload?.text ?? "")")
        #expect(assemble?.status == 403)
        let store = try TriageService(location: StoreLocation(setup.store), creating: false).store
        #expect(try store.uploadChunkBytes(project: 1) == 0 && store.uploadChunkBytes(project: .unassigned) == 0, "no chunk was kept")
    }

    @Test("A wrong key is refused from the headers, before the body: a 4 MB body announced and never sent is answered at once")
    func keyBeforeBody() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve()
        defer { serve.stop(SIGTERM) }

        for (path, header) in [
            ("/api/1/envelope/", "X-Sentry-Auth: Sentry sentry_key=wrongwrongwrong"),
            ("/api/1/store/", "X-Sentry-Auth: Sentry sentry_key=\(setup.keys[1])"),
            ("/api/1/reports", "Authorization: Bearer wrong"),
            ("/api/1/trails", "Authorization: Bearer wrong"),
        ] {
            let connection = try LoopbackConnection(port: serve.port, timeout: 3)
            let started = Date()
            connection.write(Array("POST \(path) HTTP/1.1\r\nHost: x\r\n\(header)\r\nContent-Length: 4000000\r\n\r\n".utf8))
            let answer = connection.readResponse()
            #expect(answer?.status == 401 || answer?.status == 403, "\(path): \(answer?.text ?? "no answer within 3 s")")
            #expect(Date().timeIntervalSince(started) < 3)
        }
        #expect(try setup.stored().isEmpty)
    }

    @Test("Past its rate limit a project is answered 429 with Retry-After and X-Sentry-Rate-Limits; another project is untouched")
    func rateLimitPerProject() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let limited = try setup.runner.run(
            ["project", "limit", "ios", "--events-per-minute", "3", "--store", setup.store], directory: setup.folder.url)
        try #require(limited.status == 0, "\(limited.stderr)")
        let serve = try setup.serve()
        defer { serve.stop(SIGTERM) }

        var acknowledged: [String] = []
        var iosStatuses: [Int] = []
        var refusal: LoopbackConnection.Response?
        for index in 0..<5 {
            let id = Self.eventID(index)
            let answer = LoopbackConnection.request(
                port: serve.port, "POST", "/api/1/envelope/", headers: Self.auth(setup.keys[0]), body: SampleEnvelope.bytes(eventID: id))
            iosStatuses.append(answer?.status ?? 0)
            if answer?.status == 200 { acknowledged.append(id) }
            if answer?.status == 429 { refusal = answer }
        }
        var androidStatuses: [Int] = []
        for index in 10..<15 {
            let id = Self.eventID(index)
            let answer = LoopbackConnection.request(
                port: serve.port, "POST", "/api/2/envelope/", headers: Self.auth(setup.keys[1]), body: SampleEnvelope.bytes(eventID: id))
            androidStatuses.append(answer?.status ?? 0)
            if answer?.status == 200 { acknowledged.append(id) }
        }

        #expect(iosStatuses == [200, 200, 200, 429, 429])
        #expect(androidStatuses == [200, 200, 200, 200, 200], "one project's limit never refuses another's reports")
        let wait = try #require(refusal?.headers["retry-after"].flatMap(Int.init))
        #expect((1...20).contains(wait))
        #expect(refusal?.headers["x-sentry-rate-limits"] == "\(wait):error;default:project")
        #expect(refusal?.text.contains("more than its 3 events a minute") == true)
        let stored = Set(try setup.stored().map { $0.id.replacingOccurrences(of: "-", with: "").lowercased() })
        #expect(acknowledged.allSatisfy { stored.contains($0) }, "every acknowledged report is stored")
        let metrics =
            LoopbackConnection.request(
                port: serve.port, "GET", "/metrics", headers: ["Authorization": "Bearer \(setup.readToken)"])?.text ?? ""
        #expect(metrics.contains(#"crashtrail_limit_refusals_total{reason="rate-limit",project="1"} 2"#), "\(metrics)")
    }

    @Test("Past its rate of session envelopes a project is answered 429 for the session category; another project is untouched")
    func sessionRatePerProject() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve(["--sessions-per-minute", "2"])
        defer { serve.stop(SIGTERM) }
        let started = Timestamp.rfc3339(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        func envelope(_ index: Int) -> [UInt8] {
            Array(
                """
                {"sent_at":"\(started)"}
                {"type":"session"}
                {"sid":"\(Self.eventID(index))","did":"user-\(index)","init":true,"started":"\(started)","status":"exited","errors":0,"attrs":{"release":"com.example.piratebay@3.1.0+310"}}

                """.utf8)
        }

        // When each project sends four envelopes of one session
        var statuses: [[Int]] = [[], []]
        var refusal: LoopbackConnection.Response?
        for (project, key) in setup.keys.prefix(2).enumerated() {
            for index in 0..<4 {
                let answer = LoopbackConnection.request(
                    port: serve.port, "POST", "/api/\(project + 1)/envelope/", headers: Self.auth(key), body: envelope(project * 10 + index)
                )
                statuses[project].append(answer?.status ?? 0)
                if answer?.status == 429, refusal == nil { refusal = answer }
            }
        }

        // Then each project's first two are counted and the rest refused, for the session category only
        #expect(statuses == [[200, 200, 429, 429], [200, 200, 429, 429]])
        let wait = try #require(refusal?.headers["retry-after"].flatMap(Int.init))
        #expect(refusal?.headers["x-sentry-rate-limits"] == "\(wait):session:project")
        #expect(refusal?.text.contains("more than its 2 envelopes of sessions a minute") == true, "\(refusal?.text ?? "")")
        let health = try TriageService(location: StoreLocation(setup.store), creating: false).health(project: nil, release: nil, since: nil)
        #expect(health.releases.map(\.sessions) == [4], "the sessions of the envelopes answered 200, and only those")
    }

    @Test("Requests to paths that exist nowhere add no series to /metrics, and set-aside reasons never carry upstream text")
    func boundedMetrics() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve()
        defer { serve.stop(SIGTERM) }
        func metrics() -> String {
            LoopbackConnection.request(port: serve.port, "GET", "/metrics", headers: ["Authorization": "Bearer \(setup.readToken)"])?.text
                ?? ""
        }
        for index in 0..<5 {
            _ = LoopbackConnection.request(port: serve.port, "GET", "/nowhere-\(index)")
            _ = LoopbackConnection.request(port: serve.port, "POST", "/api/\(index)/x-\(index)/")
        }
        // Twice: the first read is counted after it answers.
        _ = metrics()
        let before = metrics()
        for index in 5..<600 {
            _ = LoopbackConnection.request(port: serve.port, "GET", "/nowhere-\(index)")
            _ = LoopbackConnection.request(port: serve.port, "POST", "/api/\(index)/x-\(index)/", headers: Self.auth("k\(index)"))
        }
        let after = metrics()

        func series(_ text: String) -> Set<String> {
            Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        }
        #expect(series(after) == series(before), "\(series(after).subtracting(series(before)))")
        #expect(after.utf8.count < before.utf8.count + 2_000, "\(before.utf8.count) → \(after.utf8.count) bytes")
        #expect(!after.contains("nowhere") && !after.contains("x-5"))
        #expect(ServerMetrics.reasonClass("HTTP 400: {\"detail\":\"bad key k-123\"}") == "HTTP 400")
        #expect(ServerMetrics.reasonClass("upstream.example could not be reached: connection refused") == "other")
    }

    @Test("Below the free-disk floor intake refuses with 503 before writing; /health still answers")
    func diskFloor() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        // A floor no disk here has: the refusal path, whatever the machine's free space.
        let serve = try setup.serve(["--min-free-disk", "1000000000"])
        defer { serve.stop(SIGTERM) }

        let answer = LoopbackConnection.request(
            port: serve.port, "POST", "/api/1/envelope/", headers: Self.auth(setup.keys[0]),
            body: SampleEnvelope.bytes(eventID: Self.eventID(1)))
        #expect(answer?.status == 503, "\(answer?.text ?? "")")
        #expect(answer?.headers["retry-after"] == "60")
        #expect(answer?.text.contains("--min-free-disk") == true)
        #expect(LoopbackConnection.request(port: serve.port, "GET", "/health")?.status == 200)
        #expect(try setup.stored().isEmpty)
    }

    @Test("The quarantine is bounded: past its limit a refused payload is answered 400 and not copied")
    func boundedQuarantine() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let quarantine = setup.folder.url.appendingPathComponent("quarantine")
        let serve = try setup.serve(["--quarantine", quarantine.path, "--quarantine-limit", "0"])
        defer { serve.stop(SIGTERM) }

        var statuses: [Int] = []
        for index in 0..<20 {
            statuses.append(
                LoopbackConnection.request(
                    port: serve.port, "POST", "/api/1/reports", headers: ["Authorization": "Bearer \(setup.keys[0])"],
                    body: Array("not a crash report \(index)".utf8))?.status ?? 0)
        }
        #expect(statuses == Array(repeating: 400, count: 20))
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: quarantine.path)) ?? []
        #expect(kept.isEmpty, "\(kept)")
        let metrics =
            LoopbackConnection.request(
                port: serve.port, "GET", "/metrics", headers: ["Authorization": "Bearer \(setup.readToken)"])?.text ?? ""
        #expect(metrics.contains(#"crashtrail_limit_refusals_total{reason="quarantine-full",project="none"} 20"#), "\(metrics)")
    }

    @Test("Uploads: a project's chunk quota, a gzip chunk that inflates past the request's room, and a file of repeated chunks are refused")
    func uploadLimits() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve(["--upload-quota", "1", "--max-debug-file", "1"])
        defer { serve.stop(SIGTERM) }
        let boundary = "hostile"
        func post(_ parts: [(name: String, sha1: String, bytes: [UInt8])]) -> LoopbackConnection.Response? {
            var body: [UInt8] = []
            for part in parts {
                body += Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(part.sha1)\"\r\n\r\n".utf8)
                body += part.bytes + Array("\r\n".utf8)
            }
            body += Array("--\(boundary)--\r\n".utf8)
            return LoopbackConnection.request(
                port: serve.port, "POST", "/api/0/organizations/acme/chunk-upload/",
                headers: ["Authorization": "Bearer \(setup.uploadToken)", "Content-Type": "multipart/form-data; boundary=\(boundary)"],
                body: body)
        }
        var generator = SplitMix64(seed: 45)
        let first = (0..<700_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let second = (0..<700_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let zeros = [UInt8](repeating: 0, count: 9 << 20)

        let kept = post([("file", ChunkedUpload.sha1(first), first)])
        let overQuota = post([("file", ChunkedUpload.sha1(second), second)])
        let bomb = post([("file_gzip", ChunkedUpload.sha1(zeros), Gzip.wrap(zeros))])
        let repeated = Array(repeating: "\"\(ChunkedUpload.sha1(first))\"", count: 300).joined(separator: ",")
        let assemble = LoopbackConnection.request(
            port: serve.port, "POST", "/api/0/projects/acme/ios/files/difs/assemble/",
            headers: ["Authorization": "Bearer \(setup.uploadToken)"],
            body: Array(#"{"\#(String(repeating: "ab", count: 20))":{"name":"AppC","chunks":[\#(repeated)]}}"#.utf8))

        #expect(kept?.status == 200, "\(kept?.text ?? "")")
        #expect(overQuota?.status == 413 && overQuota?.text.contains("quota") == true, "\(overQuota?.text ?? "")")
        #expect(bomb?.status == 413 && bomb?.text.contains("inflates to more than") == true, "\(bomb?.text ?? "")")
        #expect(assemble?.status == 200)
        #expect(
            assemble?.text.contains(#""state":"error""#) == true && assemble?.text.contains("over the limit") == true,
            "\(assemble?.text ?? "")")
        let store = try TriageService(location: StoreLocation(setup.store), creating: false).store
        #expect(try store.uploadChunkBytes(project: 1) == 700_000)
        #expect(try store.debugFiles().isEmpty)
    }

    @Test(
        "Secrets: a read token given is never printed, a malformed upstream DSN is not echoed with its key, a forward file others can read is refused"
    )
    func secrets() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let serve = try setup.serve(["--read-token", "operator-secret-value"])
        serve.stop(SIGTERM)
        let badDSN = try setup.runner.run(
            ["serve", "--store", setup.store, "--listen", "127.0.0.1:0", "--forward", "ftp://leakedkey123@upstream.example/1"],
            directory: setup.folder.url)
        let file = try setup.folder.write("http://filekey456@127.0.0.1:9/1\n", to: "upstreams")
        chmod(file.path, 0o644)
        let readable = try setup.runner.run(
            ["serve", "--store", setup.store, "--listen", "127.0.0.1:0", "--forward-file", file.path], directory: setup.folder.url)
        let weak = try setup.runner.run(
            ["serve", "--store", setup.store, "--listen", "127.0.0.1:0", "--read-token", "short"], directory: setup.folder.url)

        #expect(!serve.stdout.contains("operator-secret-value") && !serve.stderr.contains("operator-secret-value"))
        #expect(serve.stdout.contains("take a token with the read scope"))
        #expect(badDSN.status != 0)
        #expect(!badDSN.stderr.contains("leakedkey123"), "\(badDSN.stderr)")
        #expect(badDSN.stderr.contains("ftp://***@upstream.example/1"), "\(badDSN.stderr)")
        #expect(readable.status != 0 && readable.stderr.contains("chmod 600"), "\(readable.stderr)")
        #expect(!readable.stderr.contains("filekey456"))
        #expect(weak.status != 0 && weak.stderr.contains("16 characters or more"), "\(weak.stderr)")
    }

    /// A store with one debug file, and the crash of its build, for the symbolizer tests.
    static func symbolizerSetup() throws -> (setup: Setup, crash: SymbolFixtures.Crash, expected: [String]) {
        let setup = try Setup()
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        let build = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let crash = try SymbolFixtures.crash(id: "45454545-0000-4000-8000-000000000001", in: build, top: "divide", caller: "crash_divide")
        let added = try setup.runner.run(
            ["symbols", "add", fixtures.url("AppC.dSYM").path, "--project", "ios", "--store", setup.store], directory: setup.folder.url)
        try #require(added.status == 0, "\(added.stderr)")
        return (setup, crash, crash.expected.flatMap { $0.map(\.symbol) })
    }

    static let symbolizerFound = ["llvm-symbolizer", "llvm-symbolizer-19"].contains { CommandRunner.which($0) != nil }

    @Test(
        "A symbolizer that hangs, or dies, holds no crash: it is stored at once without names, then named by a service with a working one",
        .enabled(if: symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer is not installed (apt-get install llvm)"),
        arguments: ["hangs", "dies"])
    func brokenSymbolizer(kind: String) throws {
        let (setup, crash, expected) = try Self.symbolizerSetup()
        defer { setup.folder.remove() }
        let script = try setup.folder.write(kind == "hangs" ? "#!/bin/sh\nexec sleep 600\n" : "#!/bin/sh\nexit 3\n", to: "symbolizer")
        chmod(script.path, 0o755)
        let payload = Array(SymbolFixtures.ips(crash, exported: 0x7FFF_FFFF).utf8)

        // When a crash comes while the symbolizer is broken
        let broken = try setup.serve(
            [],
            environment: [
                "CRASHTRAIL_LLVM_SYMBOLIZER": script.path, "CRASHTRAIL_SYMBOLIZER_TIMEOUT": "1",
                "CRASHTRAIL_SYMBOL_CACHE": setup.folder.url.appendingPathComponent("cache").path,
            ])
        let started = Date()
        let answer = LoopbackConnection.request(
            port: broken.port, "POST", "/api/1/reports", headers: ["Authorization": "Bearer \(setup.keys[0])"], body: payload, timeout: 20)
        let took = Date().timeIntervalSince(started)
        broken.stop(SIGTERM)

        // Then it is answered within the deadline and stored without names, waiting for its debug file's answer
        #expect(answer?.status == 200, "\(answer?.text ?? "no answer"): \(broken.stderr)")
        #expect(took < 8, "answered after \(took) s")
        let store = try TriageService(location: StoreLocation(setup.store), creating: false).store
        let waiting = try #require(try store.record(id: crash.id))
        #expect(waiting.report.frames.first?.symbol != expected.first)
        #expect(try !store.reportsAwaitingStoredDebugFiles().isEmpty, "the image is not marked symbolicated")

        // When a service with a working symbolizer starts, it names the frames
        let working = try setup.serve([], environment: ["CRASHTRAIL_SYMBOL_CACHE": setup.folder.url.appendingPathComponent("cache").path])
        defer { working.stop(SIGTERM) }
        var frames: [String] = []
        for _ in 0..<400 where frames.first != expected.first {
            frames = (try store.record(id: crash.id)?.report.frames ?? []).map { $0.symbol ?? "?" }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(frames == expected, "\(working.stderr)")
    }

    /// Whether `python3` can import `sentry_sdk`.
    static let sdkAvailable: Bool = {
        guard let python = CommandRunner.which("python3"), let result = try? python.run(["-c", "import sentry_sdk"]) else { return false }
        return result.status == 0
    }()

    @Test(
        "Sentry's Python SDK, answered 429 with X-Sentry-Rate-Limits, holds its next events back instead of sending them",
        .enabled(if: sdkAvailable || ConformanceSuite.isRequired, "python3 cannot import sentry_sdk (pip install sentry-sdk)"))
    func sdkHonoursRateLimit() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let python = try #require(CommandRunner.which("python3"))
        let limited = try setup.runner.run(
            ["project", "limit", "ios", "--events-per-minute", "1", "--store", setup.store], directory: setup.folder.url)
        try #require(limited.status == 0)
        let serve = try setup.serve()
        defer { serve.stop(SIGTERM) }
        let script = """
            import sys, sentry_sdk
            sentry_sdk.init(dsn=sys.argv[1], default_integrations=False, auto_enabling_integrations=False)
            for index in range(4):
                try:
                    raise ValueError("crash %d" % index)
                except ValueError:
                    sentry_sdk.capture_exception()
                sentry_sdk.flush(timeout=10)
            """

        let ran = try python.run(["-c", script, serve.dsn], directory: setup.folder.url)

        #expect(ran.status == 0, "\(ran.stderr)")
        let metrics =
            LoopbackConnection.request(
                port: serve.port, "GET", "/metrics", headers: ["Authorization": "Bearer \(setup.readToken)"])?.text ?? ""
        // The first stored, the second refused; the SDK then held the third and fourth back: sent, they would have been
        // refused too (the bucket holds one a minute). Its client reports, which carry no event, are answered 200.
        #expect(metrics.contains(#"crashtrail_http_requests_total{endpoint="/api/ID/envelope",status="429"} 1"#), "\(metrics)")
        #expect(try setup.stored().count == 1)
    }
}

/// Forwarding never follows an upstream's redirect (SPEC section 19): it would carry the report and the key elsewhere.
@Suite("Forwarding: redirects")
struct ForwardRedirectTests {
    @Test("An upstream that redirects to another origin is answered as refused; the other origin receives nothing")
    func redirectNotFollowed() async throws {
        // Given an origin that counts what reaches it, and an upstream that redirects there
        let reached = Mutex(0)
        let elsewhere = Router()
        elsewhere.post("/**") { _, _ in
            reached.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        try await Application(router: elsewhere, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { other in
            let target = "http://127.0.0.1:\(try #require(other.port))/api/1/envelope/"
            let redirecting = Router()
            redirecting.post("/**") { _, _ in Response(status: .temporaryRedirect, headers: [.location: target]) }
            try await Application(router: redirecting, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) {
                upstream in
                let client = UpstreamClient()
                let dsn = try UpstreamDSN("http://secretkey@127.0.0.1:\(try #require(upstream.port))/1")

                // When an envelope is forwarded
                let answer = await client.send(SampleEnvelope.bytes(eventID: String(repeating: "ab", count: 16)), to: dsn)
                await client.shutdown()

                // Then it is set aside, naming the redirect, and nothing reached the other origin
                guard case .rejected(let reason) = answer else {
                    Issue.record("answered \(answer)")
                    return
                }
                #expect(reason.contains("HTTP 307: the upstream redirects to http://127.0.0.1"), "\(reason)")
                #expect(!reason.contains("secretkey"))
            }
        }
        #expect(reached.withLock { $0 } == 0)
    }
}

/// A disk that really fills: a small tmpfs, where the machine lets the tests mount one (as root, outside a container
/// that forbids it).
@Suite("crashtrail serve: a disk that fills")
struct FullDiskTests {
    /// Whether a tmpfs can be mounted here.
    static let canMount: Bool = {
        guard getuid() == 0, let mount = CommandRunner.which("mount"), let umount = CommandRunner.which("umount") else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-tmpfs-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard let mounted = try? mount.run(["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.path]), mounted.status == 0 else {
            return false
        }
        _ = try? umount.run([probe.path])
        return true
    }()

    /// An envelope of the sample event padded with `size` bytes that do not compress, under `eventID`.
    static func paddedEnvelope(eventID: String, size: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let padding = (0..<size).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        var envelope = SampleEnvelope.bytes(eventID: eventID)
        // The item is the second line: its first brace opens the event object.
        let itemHeaderEnd = envelope.indices.filter { envelope[$0] == 10 }[1]
        let field = Array(#""crashtrail_test_padding":""#.utf8) + padding + Array(#"","#.utf8)
        envelope.insert(contentsOf: field, at: itemHeaderEnd + 2)
        // The item header's length grows by the field's.
        let text = String(decoding: envelope, as: UTF8.self)
        let lengthPattern = /"length":(\d+)/
        guard let match = text.firstMatch(of: lengthPattern), let length = Int(match.output.1) else { return envelope }
        return Array(text.replacingCharacters(in: match.range, with: "\"length\":\(length + field.count)").utf8)
    }

    @Test(
        "On a disk that fills, every report answered 200 is stored, the store stays whole, and the service goes on answering",
        .enabled(if: canMount, "mounting a tmpfs needs root and a machine that allows it; the floor alone is tested in HostileClientTests"),
        arguments: [8, 0])
    func diskFills(floorMiB: Int) throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("crashtrail-full-disk")
        defer { folder.remove() }
        let disk = folder.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try #require(CommandRunner.which("mount"))
        let umount = try #require(CommandRunner.which("umount"))
        try #require(try mount.run(["-t", "tmpfs", "-o", "size=24m", "tmpfs", disk.path]).status == 0)
        defer { _ = try? umount.run(["-l", disk.path]) }
        let store = disk.appendingPathComponent("store.sqlite").path
        let serve = try ServeProcess(
            runner: runner,
            arguments: [
                "--store", store, "--quarantine", disk.appendingPathComponent("quarantine").path, "--min-free-disk", String(floorMiB),
                "--events-per-minute", "0", "--quiet",
            ], directory: folder.url)

        // When events of 400 KB that do not compress are sent until the disk refuses ten in a row
        var acknowledged: [String] = []
        var refusals: [Int: String] = [:]
        var refusedInARow = 0
        for index in 0..<200 where refusedInARow < 10 {
            let id = String(format: "%032x", 0xF011_0000 + index)
            let answer = LoopbackConnection.request(
                port: serve.port, "POST", "/api/\(serve.projectID)/envelope/",
                headers: ["X-Sentry-Auth": "Sentry sentry_key=\(serve.key)"],
                body: Self.paddedEnvelope(eventID: id, size: 400_000, seed: UInt64(index)), timeout: 30)
            if answer?.status == 200 {
                acknowledged.append(id)
                refusedInARow = 0
            } else {
                refusedInARow += 1
                refusals[answer?.status ?? 0] = answer?.text ?? "no answer"
            }
        }
        let healthy = LoopbackConnection.request(port: serve.port, "GET", "/health")?.status
        serve.stop(SIGTERM)

        // Then
        #expect(!acknowledged.isEmpty && refusedInARow == 10, "acknowledged \(acknowledged.count), refusals \(refusals)")
        #expect(refusals.keys.allSatisfy { $0 == 503 }, "\(refusals)")
        if floorMiB > 0 {
            #expect(refusals[503]?.contains("--min-free-disk") == true, "the floor refused first: \(refusals)")
        }
        #expect(healthy == 200)
        #expect(serve.status == 0, "\(serve.stderr.suffix(2_000))")
        let queue = try DatabaseQueue(path: store)
        let integrity = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
        let stored = Set(
            try queue.read { db in try String.fetchAll(db, sql: "SELECT id FROM report") }.map {
                $0.replacingOccurrences(of: "-", with: "").lowercased()
            })
        #expect(acknowledged.allSatisfy { stored.contains($0) }, "every acknowledged report is stored")
    }
}
