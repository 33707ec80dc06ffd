import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 4: the shared conformance suite, navigation and URL cases.
@Suite("Conformance suite")
struct ConformanceTests {
    @Test("The suite has its navigation cases")
    func suiteIsPresent() throws {
        #expect(try ConformanceSuite.required().navigationCases().count > 50)
    }

    @Test("Every navigation case replays to its final state and anomalies", arguments: try ConformanceSuite.required().navigationCases())
    func navigationCase(_ testCase: ConformanceSuite.NavigationCase) throws {
        // Given
        let suite = try ConformanceSuite.required()
        let manifest = try suite.manifest(named: testCase.manifestName)
        let trail = try Trail(json: testCase.trailBytes)
        // When
        var engine = NavigationEngine(manifest: manifest, state: trail.base)
        let anomalies = engine.apply(trail.steps)
        // Then
        let expectedFinal = try NavigationState(jsonValue: try #require(testCase.expected["final"]), path: "final")
        #expect(engine.state.canonicalJSON == expectedFinal.canonicalJSON, "\(testCase.name)")
        let expectedAnomalies = try #require(testCase.expected["anomalies"]?.arrayValue).map {
            "\($0["step"]?.intValue ?? -1):\($0["kind"]?.stringValue ?? "")"
        }
        #expect(anomalies.map { "\($0.step):\($0.kind.rawValue)" } == expectedAnomalies, "\(testCase.name)")
        if let recorded = trail.final {
            #expect(recorded == engine.state, "\(testCase.name): the trail's recorded final differs")
        }
    }

    @Test("URLs parse to their destination and print back exactly")
    func roundTripURLs() throws {
        let suite = try ConformanceSuite.required()
        let urls = try suite.urlCases()
        let manifest = try suite.manifest(named: urls["manifest"]?.stringValue ?? "piratebay.yml")
        for entry in try #require(urls["roundTrip"]?.arrayValue) {
            let url = try #require(entry["url"]?.stringValue)
            let destination = try Destination(jsonValue: try #require(entry["destination"]))
            #expect(manifest.destination(forURL: url) == destination, "parse \(url)")
            #expect(manifest.url(for: destination) == url, "print \(destination)")
        }
        for entry in try #require(urls["parseOnly"]?.arrayValue) {
            let url = try #require(entry["url"]?.stringValue)
            let destination = try Destination(jsonValue: try #require(entry["destination"]))
            #expect(manifest.destination(forURL: url) == destination, "parse \(url)")
        }
        for entry in try #require(urls["unmatched"]?.arrayValue) {
            let url = try #require(entry.stringValue)
            #expect(manifest.destination(forURL: url) == nil, "\(url) must match nothing")
        }
        for entry in try #require(urls["noURL"]?.arrayValue) {
            let destination = try Destination(jsonValue: try #require(entry["destination"]))
            #expect(manifest.url(for: destination) == nil, "\(destination) has no URL: \(entry["why"]?.stringValue ?? "")")
        }
    }
}
