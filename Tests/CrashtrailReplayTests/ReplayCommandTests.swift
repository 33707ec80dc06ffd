import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail replay` end to end through the built executable: golden outputs, trails from a crash payload
/// and from the store, and clear errors for bad input.
@Suite("crashtrail replay command")
struct ReplayCommandTests {
    static let manifestArguments = GoldenSamples.manifestPaths.flatMap { ["--manifest", $0] }
    static let formats = ["json", "text", "urls", "simctl", "xcuitest"]

    static func runner() throws -> CommandRunner {
        try #require(CommandRunner.locate(), "the crashtrail executable was not built")
    }

    @Test("run from the package root, the command prints each sample's golden file", arguments: GoldenSamples.trails)
    func printsGoldenFiles(_ sample: GoldenSamples.Sample) throws {
        let runner = try Self.runner()
        for format in Self.formats {
            // Given a sample trail, when the command replays it in a format
            let result = try runner.run(
                ["replay", sample.path, "--format", format] + Self.manifestArguments, directory: GoldenSamples.packageRoot)
            // Then it prints exactly the golden file and nothing on standard error
            #expect(result.status == 0, "\(sample.name) \(format): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(sample.name) \(format)")
            let extensionName =
                format == "text"
                ? "txt" : format == "urls" ? "urls.txt" : format == "simctl" ? "sh" : format == "xcuitest" ? "swift" : "json"
            let golden = GoldenSamples.goldenFolder.appendingPathComponent("replay.\(sample.name).\(extensionName)")
            let expected = try String(contentsOf: golden, encoding: .utf8)
            #expect(result.stdout == expected, "\(sample.name) \(format) differs from \(golden.lastPathComponent)")
        }
    }

    @Test("a crashtrail crash report file is replayed through the trail it carries")
    func replaysPayloadFile() throws {
        // Given a crashtrail report whose trail is the checkout sample
        let runner = try Self.runner()
        let folder = try TemporaryFolder("replay-payload")
        defer { folder.remove() }
        let trail = try Self.sampleTrailText("checkout-crash")
        let payload = try folder.write(
            #"{"crashtrail":1,"id":"7A3F0C9E-0000-4000-8000-000000000001","time":"2026-11-02T14:45:32Z","trail":"# + trail + "}",
            to: "crash.json")
        // When it is replayed
        let result = try runner.run(
            ["replay", payload.path, "--format", "urls"] + Self.manifestArguments, directory: GoldenSamples.packageRoot)
        // Then the links are the sample's
        #expect(result.status == 0, "\(result.stderr)")
        let golden = try String(
            contentsOf: GoldenSamples.goldenFolder.appendingPathComponent("replay.checkout-crash.urls.txt"), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    @Test("a stored report is replayed by a unique prefix of its ID")
    func replaysStoredReport() throws {
        // Given a store holding one ingested crashtrail report
        let runner = try Self.runner()
        let folder = try TemporaryFolder("replay-store")
        defer { folder.remove() }
        let trail = try Self.sampleTrailText("sign-in-interrupted")
        let payload = try folder.write(
            #"{"crashtrail":1,"id":"c0ffee00-1111-4222-8333-444455556666","time":"2026-11-03T08:13:00Z","trail":"# + trail + "}",
            to: "crash.json")
        let store = folder.url.appendingPathComponent("store.sqlite").path
        let ingest = try runner.run(
            ["ingest", payload.path, "--store", store, "--quiet"] + Self.manifestArguments, directory: GoldenSamples.packageRoot)
        try #require(ingest.status == 0, "ingest failed: \(ingest.stderr)")
        // When it is replayed by a prefix of its ID
        let result = try runner.run(
            ["replay", "c0ffee", "--store", store, "--format", "json"] + Self.manifestArguments, directory: GoldenSamples.packageRoot)
        // Then the report is named by its stored ID and the links are the sample's
        #expect(result.status == 0, "\(result.stderr)")
        let output = try JSONParser.parse(result.stdoutBytes)
        #expect(output["report"] == .string("c0ffee00-1111-4222-8333-444455556666"))
        let golden = try JSONParser.parse(
            Array(try Data(contentsOf: GoldenSamples.goldenFolder.appendingPathComponent("replay.sign-in-interrupted.json"))))
        #expect(output["links"] == golden["links"])
        #expect(output["final"] == golden["final"])
    }

    @Test("one manifest for another app is refused, naming the app needed; --force replays with it and a warning")
    func refusesAnotherAppsManifest() throws {
        let runner = try Self.runner()
        let arguments = [
            "replay", "Samples/trails-golden/trails/checkout-crash.json", "--manifest", "Samples/trails-golden/lighthouse.yml", "--format",
            "urls",
        ]
        let refused = try runner.run(arguments, directory: GoldenSamples.packageRoot)
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains(
                "Error: the trail is from com.example.piratebay, but the manifest Samples/trails-golden/lighthouse.yml is for org.example.lighthouse"
            ),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("--force"))
        let forced = try runner.run(arguments + ["--force"], directory: GoldenSamples.packageRoot)
        #expect(forced.status == 0)
        #expect(forced.stderr.contains("org.example.lighthouse") && forced.stderr.contains("com.example.piratebay"), "\(forced.stderr)")
    }

    @Test("several manifests, none for the trail's app: the error says which app it needs")
    func refusesWhenNoManifestMatches() throws {
        let runner = try Self.runner()
        let folder = try TemporaryFolder("replay-manifests")
        defer { folder.remove() }
        _ = try folder.write("app: org.example.one\nroot: a\ndestinations:\n  a: { url: \"one://a\" }\n", to: "one.yml")
        _ = try folder.write("app: org.example.two\nroot: b\ndestinations:\n  b: { url: \"two://b\" }\n", to: "two.yml")
        let result = try runner.run(
            ["replay", "Samples/trails-golden/trails/checkout-crash.json", "--manifest", folder.url.path],
            directory: GoldenSamples.packageRoot)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains("com.example.piratebay"), "\(result.stderr)")
    }

    @Test(
        "bad input gets a clear error and exit status",
        arguments: [
            (["replay", "no-such-report", "--store", "/nonexistent/store.sqlite"], Int32(1), "--manifest"),
            (
                ["replay", "no-such-report", "--manifest", "Samples/trails-golden/lighthouse.yml", "--store", "/nonexistent/store.sqlite"],
                1, "no crash store"
            ),
            (["replay", "Samples/trails-golden/trails/checkout-crash.json", "--manifest", "missing.yml"], 1, "missing.yml"),
            (
                [
                    "replay", "Samples/trails-golden/trails/checkout-crash.json", "--manifest", "Samples/trails-golden/lighthouse.yml",
                    "--format", "pdf",
                ], 64, "pdf"
            ),
            (
                [
                    "replay", "Samples/trails-golden/trails/checkout-crash.json", "--manifest", "Samples/trails-golden/lighthouse.yml",
                    "--pause", "-1",
                ], 64, "--pause"
            ),
            (["replay", "Samples/trails-golden", "--manifest", "Samples/trails-golden/lighthouse.yml"], 1, "folder"),
        ])
    func refusesBadInput(_ arguments: [String], _ status: Int32, _ mention: String) throws {
        let runner = try Self.runner()
        let result = try runner.run(arguments, directory: GoldenSamples.packageRoot)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("an invalid trail file is refused naming the step and field")
    func refusesInvalidTrail() throws {
        let runner = try Self.runner()
        let folder = try TemporaryFolder("replay-invalid")
        defer { folder.remove() }
        let trail = try Self.sampleTrailText("checkout-crash").replacingOccurrences(of: #""t":6750"#, with: #""t":50"#)
        let file = try folder.write(trail, to: "bad.json")
        let result = try runner.run(["replay", file.path] + Self.manifestArguments, directory: GoldenSamples.packageRoot)
        #expect(result.status == 1)
        #expect(result.stderr.contains("step 1"), "\(result.stderr)")
    }

    /// A sample trail's canonical JSON.
    static func sampleTrailText(_ name: String) throws -> String {
        let sample = try #require(GoldenSamples.trails.first { $0.name == name })
        return try Trail(json: try GoldenSamples.bytes(of: sample)).canonicalJSONString
    }
}
