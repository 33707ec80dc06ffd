import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Foundation
import Testing

/// Every case of the shared conformance suite (SPEC sections 4 and 9) replays to its expected final state,
/// anomalies and shortest links.
@Suite("Conformance suite replays")
struct ConformanceReplayTests {
    @Test("the conformance suite has navigation cases")
    func suiteIsPresent() throws {
        #expect(try ConformanceSuite.required().navigationCases().count > 0, "the conformance suite has no navigation cases")
    }

    @Test("replay gives the expected final state, anomalies and links", arguments: try ConformanceSuite.required().navigationCases())
    func replaysCase(_ testCase: ConformanceSuite.NavigationCase) throws {
        // Given a case's trail and manifest
        let suite = try ConformanceSuite.required()
        let manifest = try suite.manifest(named: testCase.manifestName)
        let trail = try Trail(json: testCase.trailBytes)

        // When it is replayed
        let replay = Replayer(manifest: manifest).replay(trail, report: testCase.name)

        // Then the final state, anomalies and links are the expected ones
        let expectedFinal = try NavigationState(jsonValue: try #require(testCase.expected["final"]), path: "final")
        #expect(replay.final.canonicalJSON == expectedFinal.canonicalJSON, "final state of \(testCase.name)")
        let anomalies = replay.anomalies.map { "\($0.step) \($0.kind.rawValue)" }
        let expectedAnomalies = try #require(testCase.expected["anomalies"]?.arrayValue).map {
            "\($0["step"]?.intValue ?? -1) \($0["kind"]?.stringValue ?? "?")"
        }
        #expect(anomalies == expectedAnomalies, "anomalies of \(testCase.name)")
        if trail.final != nil {
            #expect(replay.verified == true, "verified: \(replay.difference?.description ?? "")")
        } else {
            #expect(replay.verified == nil)
        }

        let links = try #require(testCase.expected["links"], "\(testCase.name) has no expected links")
        #expect(replay.links.preconditions == Self.strings(links["preconditions"]), "preconditions of \(testCase.name)")
        #expect(replay.links.urls == Self.strings(links["urls"]), "urls of \(testCase.name)")
        #expect(
            replay.links.reproduces == (links["reproduces"] == .bool(true)),
            "reproduces of \(testCase.name): \(replay.links.mismatch?.description ?? "")")
        #expect(
            replay.links.unreproducible.map(\.reason.code) == Self.reasons(links["unreproducible"]),
            "unreproducible of \(testCase.name)")
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Reason codes, whether written as plain strings or as `{"screen", "reason"}` objects.
    private static func reasons(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap { $0.stringValue ?? $0["reason"]?.stringValue }
    }
}
