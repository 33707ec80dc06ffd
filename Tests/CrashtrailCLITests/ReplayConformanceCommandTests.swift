import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail replay TRAIL.json --manifest M --format json` on every conformance trail prints the expected
/// `final` and `anomalies` (SPEC sections 4 and 9), end to end through the built executable.
@Suite("crashtrail replay on the conformance suite")
struct ReplayConformanceCommandTests {
    static let suite = ConformanceSuite.locate()
    /// The cases, or none when the suite is absent or cannot be read (`suiteLoads` then fails in CI and says why).
    static let cases: [ConformanceSuite.NavigationCase] = (try? suite?.navigationCases()) ?? []

    @Test("The suite is present and every case loads (required in CI)")
    func suiteLoads() throws {
        guard let suite = Self.suite else {
            if ConformanceSuite.isRequired {
                Issue.record("the conformance suite was not found: set CRASHTRAIL_CONFORMANCE or check out shared/ beside the package")
            } else {
                print("note: conformance suite absent (set CRASHTRAIL_CONFORMANCE); its replay cases are skipped")
            }
            return
        }
        // Loading again here surfaces the error that made `cases` empty.
        let loaded = try suite.navigationCases()
        #expect(loaded.count > 50, "only \(loaded.count) navigation cases in \(suite.folder.path)")
        #expect(Self.cases.count == loaded.count)
    }

    @Test("Every conformance trail replays to its expected final state and anomalies", arguments: cases)
    func replay(_ testCase: ConformanceSuite.NavigationCase) throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let suite = try #require(Self.suite)
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
