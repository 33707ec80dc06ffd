import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Sentry's own CLI (`sentry-cli` from PyPI) uploading dSYMs to `crashtrail serve`, its `SENTRY_URL` the only change:
/// a real client of the chunk upload protocol (SPEC section 16), written by nobody here.
@Suite("crashtrail serve: sentry-cli debug-files upload")
struct SentryCLIUploadTests {
    static let sentryCLI = CommandRunner.which("sentry-cli")
    static let symbolizerFound = ["llvm-symbolizer", "llvm-symbolizer-19"].contains { CommandRunner.which($0) != nil }

    @Test(
        "A crash stored before its dSYM is symbolicated once sentry-cli uploads it; uploading again stores nothing twice",
        .enabled(
            if: (sentryCLI != nil && symbolizerFound) || ConformanceSuite.isRequired,
            "sentry-cli or llvm-symbolizer is not installed (pip install sentry-cli; apt-get install llvm)"))
    func upload() throws {
        // Given a stripped build's crash ingested into a store, and serve on that store
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let cli = try #require(Self.sentryCLI, "sentry-cli is not on the PATH")
        let folder = try TemporaryFolder("crashtrail-sentry-cli")
        defer { folder.remove() }
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        let build = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let crash = try SymbolFixtures.crash(
            id: "33333333-0000-4000-8000-000000000001", in: build, top: "divide", caller: "crash_divide")
        let reports = folder.url.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        _ = try folder.write(SymbolFixtures.ips(crash, exported: 0x7FFF_FFFF), to: "reports/crash.ips")
        let store = folder.url.appendingPathComponent("store.sqlite")
        let ingested = try runner.run(["ingest", reports.path, "--store", store.path], directory: folder.url)
        try #require(ingested.status == 0, "\(ingested.stderr)")
        let added = try runner.run(["project", "add", "default", "--store", store.path], directory: folder.url)
        try #require(added.status == 0, "\(added.stderr)")
        let made = try runner.run(
            ["project", "token", "add", "default", "--scope", "debug-files", "--store", store.path], directory: folder.url)
        try #require(made.status == 0, "\(made.stderr)")
        let token = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path], directory: folder.url)
        defer { serve.stop(SIGTERM) }
        var environment = [
            "SENTRY_URL": "http://127.0.0.1:\(serve.port)", "SENTRY_AUTH_TOKEN": serve.key, "SENTRY_ORG": "acme",
            "SENTRY_PROJECT": "default", "HOME": folder.url.path, "SENTRY_LOAD_DOTENV": "0",
            "SENTRY_DISABLE_UPDATE_CHECK": "1",
        ]
        let arguments = ["debug-files", "upload", "--wait", fixtures.url("AppC.dSYM").path]

        // When sentry-cli uploads the dSYM with the project's DSN key, then with a debug-files token
        let refused = try cli.run(arguments, directory: folder.url, environment: environment)
        environment["SENTRY_AUTH_TOKEN"] = token
        let uploaded = try cli.run(arguments, directory: folder.url, environment: environment)

        // Then the DSN key uploads nothing
        #expect(refused.status != 0, "sentry-cli uploaded with a DSN key: \(refused.stdout)")
        #expect(refused.stderr.contains("403") || refused.stderr.contains("DSN key"), "\(refused.stderr)")

        // And the token's upload is stored, and the waiting crash names its frames
        try #require(uploaded.status == 0, "sentry-cli: \(uploaded.stdout) \(uploaded.stderr)\nserve: \(serve.stderr)")
        let service = try TriageService(location: StoreLocation(store.path), creating: false)
        #expect(try service.store.debugFiles().map(\.uuid) == [build.uuid.lowercased()])
        var frames: [String] = []
        for _ in 0..<400 where frames.first != "divide" {
            frames = (try service.store.record(id: crash.id)?.report.frames ?? []).map { $0.symbol ?? "?" }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let expected = crash.expected.flatMap { $0.map(\.symbol) }
        #expect(frames == expected, "serve: \(serve.stderr)")
        #expect(try service.store.missingDebugFiles().isEmpty)

        // And a second upload finds the file there
        let again = try cli.run(arguments, directory: folder.url, environment: environment)
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try service.store.debugFiles().count == 1)
    }
}
