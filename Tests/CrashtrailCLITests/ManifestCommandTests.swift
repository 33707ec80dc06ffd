import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail manifest check`, end to end.
@Suite("crashtrail manifest check")
struct ManifestCommandTests {
    static let runner = CommandRunner.locate()

    @Test("A valid manifest is summarized and exits 0")
    func valid() throws {
        let runner = try #require(Self.runner, "the crashtrail executable was not built")
        let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml")
        let result = try runner.run(["manifest", "check", manifest.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok: com.example.piratebay"))
        #expect(result.stdout.contains("19 destinations"))
    }

    @Test("An invalid manifest names file, line, destination and problem, and exits 1")
    func invalid() throws {
        let runner = try #require(Self.runner, "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(
            """
            app: com.example.test
            tabs: [home]
            destinations:
              home: { url: "t://home" }
              item: { url: "t://item/{id}", requires: signedIn }
            """, to: "bad.yml")
        let result = try runner.run(["manifest", "check", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.yml:5: destination \"item\": requires unknown condition \"signedIn\""), "\(result.stderr)")
    }

    @Test("A missing file is a clear error, not a crash")
    func missingFile() throws {
        let runner = try #require(Self.runner, "the crashtrail executable was not built")
        let result = try runner.run(["manifest", "check", "/nonexistent/app.yml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/app.yml"))
        #expect(result.stderr.contains("cannot read"))
    }

    @Test("No file is a usage error (exit 64)")
    func usage() throws {
        let runner = try #require(Self.runner, "the crashtrail executable was not built")
        let result = try runner.run(["manifest", "check"])
        #expect(result.status == 64)
    }

    @Test("check lists the screen names breadcrumbs may give, in text and JSON")
    func listsScreens() throws {
        let runner = try #require(Self.runner, "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let yaml = """
            app: com.example.screens
            root: start
            destinations:
              start: { url: "screens://start", screen: StartViewController }
              detail: { url: "screens://detail/{id}", screens: [App.DetailViewController, DetailView] }
            """
        let file = try folder.write(yaml, to: "screens.yml")
        let text = try runner.run(["manifest", "check", file.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("\n  screens: StartViewController (start), App.DetailViewController (detail), DetailView (detail)\n"),
            "\(text.stdout)")
        let json = try JSONParser.parse(try runner.run(["manifest", "check", file.path, "--format", "json"]).stdoutBytes)
        #expect(
            json.arrayValue?.first?["screens"]
                == .object(["StartViewController": "start", "App.DetailViewController": "detail", "DetailView": "detail"]))
    }
}
