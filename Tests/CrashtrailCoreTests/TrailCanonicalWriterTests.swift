import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `Trail.canonicalJSON` is written straight from the trail's fields; it must equal the generic writer's output.
@Suite("The fast canonical trail writer")
struct TrailCanonicalWriterTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func writesExactlyTheCoreCanonicalJSON(seed: UInt64) throws {
        // Given generated steps over the sample manifest (every op, odd payloads), with base and final states
        let manifest = try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
        var generator = RandomStepGenerator(manifest: manifest, seed: seed)
        let steps = generator.steps(count: 200)
        var engine = NavigationEngine(manifest: manifest)
        engine.apply(steps)
        var state = engine.state
        state.conditions.insert("zeta \"quoted\"\n")
        state.pending = PendingDestination(Destination("seller", ["id": "é/\u{7}", "n": .int(-3)]), mode: .open)
        let trail = Trail(
            app: Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412"),
            session: Trail.Session(id: "S", started: "2026-11-02T14:45:05Z", pid: Int64(seed)),
            base: seed.isMultiple(of: 2) ? manifest.launchState : nil, dropped: Int64(seed), steps: steps,
            final: seed.isMultiple(of: 3) ? nil : state)
        // Then the fast writer and the generic one agree byte for byte
        #expect(trail.canonicalJSON == CanonicalJSON.bytes(of: trail.jsonValue))
    }
}
