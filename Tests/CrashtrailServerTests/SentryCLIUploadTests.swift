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

    /// docs/ADOPTING.md's Xcode build phase: the shell block after its `xcode-build-phase` marker.
    static func buildPhase() throws -> String {
        let page = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/ADOPTING.md"), encoding: .utf8)
        let after = try #require(page.components(separatedBy: "<!-- xcode-build-phase -->").dropFirst().first)
        let block = try #require(after.components(separatedBy: "```sh\n").dropFirst().first)
        return try #require(block.components(separatedBy: "\n```").first)
    }

    /// A dSYM bundle as Xcode and App Store Connect give them: the DWARF file and, beside it, its UUID map.
    static func bundleWithUUIDMap(in folder: TemporaryFolder, plist: String) throws -> (bundle: URL, uuid: String) {
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        let build = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let products = folder.url.appendingPathComponent("Build/Products/Release-iphoneos")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        let bundle = products.appendingPathComponent("AppC.dSYM")
        try FileManager.default.copyItem(at: fixtures.url("AppC.dSYM"), to: bundle)
        let map = bundle.appendingPathComponent("Contents/Resources/\(build.uuid.uppercased()).plist")
        try Data(plist.utf8).write(to: map)
        return (products, build.uuid.lowercased())
    }

    static let uuidMap = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>DBGArchitecture</key>
        \t<string>arm64</string>
        \t<key>DBGBuildSourcePath</key>
        \t<string>/Users/build/Library/Developer/Xcode/DerivedData/AppC</string>
        \t<key>DBGOriginalUUID</key>
        \t<string>7F3A5C1E-0000-4000-8000-00000000A0C0</string>
        \t<key>DBGSymbolRichExecutable</key>
        \t<string>/Users/build/AppC.app/AppC</string>
        \t<key>DBGVersion</key>
        \t<string>3</string>
        </dict>
        </plist>
        """

    @Test(
        "docs/ADOPTING.md's Xcode build phase uploads a dSYM bundle with its UUID map, once and again",
        .enabled(
            if: sentryCLI != nil || ConformanceSuite.isRequired, "sentry-cli is not installed (pip install sentry-cli)"))
    func xcodeBuildPhase() throws {
        // Given serve on an empty store with a debug-files token, and a build's products with a dSYM and its UUID map
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        _ = try #require(Self.sentryCLI, "sentry-cli is not on the PATH")
        let bash = try #require(CommandRunner.which("bash"))
        let folder = try TemporaryFolder("crashtrail-build-phase")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        #expect(try runner.run(["project", "add", "shop", "--store", store.path], directory: folder.url).status == 0)
        let made = try runner.run(
            ["project", "token", "add", "shop", "--scope", "debug-files", "--store", store.path], directory: folder.url)
        try #require(made.status == 0, "\(made.stderr)")
        let token = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path], directory: folder.url)
        defer { serve.stop(SIGTERM) }
        let (products, uuid) = try Self.bundleWithUUIDMap(in: folder, plist: Self.uuidMap)
        // Xcode's environment for a Run Script phase, and the scheme's SENTRY_ variables
        let environment = [
            "SENTRY_URL": "http://127.0.0.1:\(serve.port)", "SENTRY_AUTH_TOKEN": token, "DWARF_DSYM_FOLDER_PATH": products.path,
            "HOME": folder.url.path, "SENTRY_LOAD_DOTENV": "0", "SENTRY_DISABLE_UPDATE_CHECK": "1",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        let phase = try Self.buildPhase()

        // When the build phase runs
        let built = try bash.run(["-e", "-c", phase], directory: folder.url, environment: environment)

        // Then it succeeds: the DWARF file is stored, the UUID map acknowledged and kept nowhere
        try #require(built.status == 0, "the build phase failed: \(built.stdout) \(built.stderr)\nserve: \(serve.stderr)")
        #expect(built.stdout.contains("uuidmap") || built.stdout.contains(".plist"), "\(built.stdout)")
        let service = try TriageService(location: StoreLocation(store.path), creating: false)
        #expect(try service.store.debugFiles().map(\.uuid) == [uuid])

        // When the build phase runs again (a rebuild of the same sources)
        let rebuilt = try bash.run(["-e", "-c", phase], directory: folder.url, environment: environment)

        // Then it succeeds again and stores nothing twice
        #expect(rebuilt.status == 0, "\(rebuilt.stdout) \(rebuilt.stderr)")
        #expect(try service.store.debugFiles().count == 1)
    }
}
