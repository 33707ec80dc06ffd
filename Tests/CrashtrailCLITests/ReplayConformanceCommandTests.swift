import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail replay TRAIL.json --manifest M --format json` on every conformance trail prints the expected
/// `final` and `anomalies` (SPEC sections 4 and 9), end to end through the built executable.
@Suite("crashtrail replay on the conformance suite")
struct ReplayConformanceCommandTests {
    @Test("The suite is present and every case loads")
    func suiteLoads() throws {
        let suite = try ConformanceSuite.required()
        let loaded = try suite.navigationCases()
        #expect(loaded.count > 50, "only \(loaded.count) navigation cases in \(suite.folder.path)")
    }

    @Test(
        "Every conformance trail replays to its expected final state and anomalies",
        arguments: try ConformanceSuite.required().navigationCases())
    func replay(_ testCase: ConformanceSuite.NavigationCase) throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let suite = try ConformanceSuite.required()
        let manifest = suite.folder.appendingPathComponent(testCase.manifestName)
        // When
        let result = try runner.run(["replay", testCase.trailURL.path, "--manifest", manifest.path, "--format", "json"])
        // Then
        #expect(result.status == 0, "\(testCase.name): \(result.stderr)")
        #expect(result.stdout.hasSuffix("}\n"))
        let output = try JSONParser.parse(result.stdoutBytes)
        #expect(
            CanonicalJSON.string(of: try #require(output["final"])) == CanonicalJSON.string(of: try #require(testCase.expected["final"])),
            "\(testCase.name)")
        let printed = (try #require(output["anomalies"]?.arrayValue)).map {
            "\($0["step"]?.intValue ?? -1):\($0["kind"]?.stringValue ?? "")"
        }
        let expected = (try #require(testCase.expected["anomalies"]?.arrayValue)).map {
            "\($0["step"]?.intValue ?? -1):\($0["kind"]?.stringValue ?? "")"
        }
        #expect(printed == expected, "\(testCase.name)")
        // The printed JSON is canonical and ends with one newline.
        #expect(CanonicalJSON.string(of: output) + "\n" == result.stdout)
    }
}
