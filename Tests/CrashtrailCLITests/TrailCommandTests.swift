import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail trail encode|decode|inspect`, end to end through the built executable (SPEC section 6).
@Suite("crashtrail trail")
struct TrailCommandTests {
    static let trailFile = PackageRoot.url.appendingPathComponent("Samples/trails-golden/trails/sign-in-interrupted.json")
    static let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml")

    static func canonicalInput() throws -> String {
        try Trail(json: Array(try Data(contentsOf: trailFile))).canonicalJSONString + "\n"
    }

    @Test(
        "Every form encodes and decodes back to the canonical JSON, with and without the manifest",
        arguments: [["--to", "text"], ["--to", "binary"], ["--to", "keys"], ["--to", "keys", "--key-limit", "64"]],
        [false, true])
    func roundTrip(form: [String], withManifest: Bool) throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifestArguments = withManifest ? ["--manifest", Self.manifest.path] : []
        // When
        let encoded = try runner.run(["trail", "encode", Self.trailFile.path] + form + manifestArguments)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let file = folder.url.appendingPathComponent("trail.encoded")
        try Data(encoded.stdoutBytes).write(to: file)
        let decoded = try runner.run(["trail", "decode", file.path] + manifestArguments)
        // Then
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == (try Self.canonicalInput()))
        if form.contains("keys") {
            let limit = form.last == "64" ? 64 : 1_024
            let parts = try #require(try JSONParser.parse(encoded.stdoutBytes).objectValue)
            #expect(parts.count >= 1)
            #expect(parts.values.allSatisfy { ($0.stringValue?.count ?? .max) <= limit })
        }
    }

    @Test("Standard input works for encode and decode")
    func standardInput() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let encoded = try runner.run(["trail", "encode"], stdin: Array(try Data(contentsOf: Self.trailFile)))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.hasPrefix("ct1:"))
        let decoded = try runner.run(["trail", "decode", "-"], stdin: encoded.stdoutBytes)
        #expect(decoded.stdout == (try Self.canonicalInput()))
    }

    @Test("A trail encoded with a manifest names the manifest it needs when decoded without it")
    func missingManifest() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let encoded = try runner.run(["trail", "encode", Self.trailFile.path, "--to", "binary", "--manifest", Self.manifest.path])
        let file = folder.url.appendingPathComponent("needs-manifest.ctr")
        try Data(encoded.stdoutBytes).write(to: file)
        let decoded = try runner.run(["trail", "decode", file.path])
        #expect(decoded.status == 1)
        #expect(decoded.stderr.contains("needs-manifest.ctr"))
        #expect(decoded.stderr.contains("--manifest"))
        #expect(decoded.stdout.isEmpty)
    }

    @Test("Input that is no trail is refused naming the file")
    func garbage() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("not a trail\n", to: "garbage.txt")
        let result = try runner.run(["trail", "decode", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("garbage.txt"))
        let invalid = try folder.write(#"{"version":1,"steps":[{"t":1,"op":"fly"}]}"#, to: "bad.json")
        let refused = try runner.run(["trail", "encode", invalid.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad.json"))
    }

    @Test("inspect shows the version, the step count and the sizes")
    func inspect() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let result = try runner.run(["trail", "inspect", Self.trailFile.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("format version:  2"))
        #expect(result.stdout.contains("steps:           9"))
        #expect(result.stdout.contains("ratio:"))
        // A trail that an older build wrote says its version.
        let folder = try TemporaryFolder()
        let old = try folder.write(Self.version1Text, to: "old.ct1")
        let oldResult = try runner.run(["trail", "inspect", old.path, "--manifest", Self.manifest.path])
        #expect(oldResult.status == 0, "\(oldResult.stderr)")
        #expect(oldResult.stdout.contains("format version:  1"))
    }

    /// The `ct1:` text of a format version 1 trail, as the sample KSCrash report carries it.
    static var version1Text: String {
        get throws {
            let report = try String(
                contentsOf: PackageRoot.url.appendingPathComponent("Samples/reports/kscrash-user-ct1.json"), encoding: .utf8)
            return String(report[try #require(report.range(of: #"ct1:[A-Za-z0-9_-]+"#, options: .regularExpression))])
        }
    }
}
