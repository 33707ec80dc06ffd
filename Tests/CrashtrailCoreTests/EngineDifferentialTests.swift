import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailCore

/// ``NavigationEngine``'s entries (one step at a time, the sequence form and the replay entry that records no
/// anomalies) against ``SpecEngine``, the SPEC's rules written on their own: the same states, anomalies, step counts and
/// running transitions on seeded steps; and the engine's rule lookup against a linear scan.
@Suite("Engine entries against the SPEC")
struct EngineDifferentialTests {
    static func manifests() throws -> [(name: String, manifest: Manifest)] {
        [
            (
                "piratebay.yml",
                try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
            ),
            ("harbor.yml", try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/Harbor/harbor.yml"))),
        ]
    }

    @Test("apply, the sequence form and applyDiscardingAnomalies match the SPEC oracle on 3,000 seeded step sequences per manifest")
    func engineAgreesWithTheOracle() throws {
        for (name, manifest) in try Self.manifests() {
            for seed in 0..<3_000 {
                // Given seeded steps, some from a random valid base
                var generator = RandomStepGenerator(manifest: manifest, seed: 0xE16E_0000 &+ UInt64(seed))
                let steps = generator.steps(count: 1 + seed % 97)
                var baseEngine = SpecEngine(manifest: manifest)
                for step in generator.steps(count: 12) { baseEngine.apply(step) }
                let base: NavigationState? = seed % 5 == 0 ? baseEngine.state : nil
                var oracle = SpecEngine(manifest: manifest, state: base)
                var engine = NavigationEngine(manifest: manifest, state: base)
                var discarding = NavigationEngine(manifest: manifest, state: base)
                // When each applies them, one at a time and (for the discarding one) recording nothing
                var expected: [SpecEngine.Anomaly] = []
                var actual: [SpecEngine.Anomaly] = []
                for step in steps {
                    expected += oracle.apply(step)
                    actual += EngineOracleTests.anomalies(engine.apply(step))
                    discarding.applyDiscardingAnomalies(step)
                    // Then every intermediate state, count and transition agrees
                    #expect(engine.state == oracle.state, "\(name) seed \(seed)")
                    #expect(discarding.state == oracle.state, "\(name) seed \(seed)")
                    let transition = oracle.transitionStart.map { [$0, Int64(oracle.transitionStep ?? -1)] }
                    #expect(engine.transition.map { [$0.start, Int64($0.step)] } == transition)
                    #expect(discarding.transition.map { [$0.start, Int64($0.step)] } == transition)
                }
                #expect(actual == expected, "\(name) seed \(seed)")
                #expect(engine.stepCount == oracle.index && discarding.stepCount == oracle.index)
                // And the sequence form gives the same anomalies
                var whole = NavigationEngine(manifest: manifest, state: base)
                #expect(EngineOracleTests.anomalies(whole.apply(steps)) == expected, "\(name) seed \(seed)")
                #expect(whole.state == oracle.state)
            }
        }
    }

    @Test("the rule lookup finds what a linear scan by == finds, canonical equivalents and near misses included")
    func ruleLookupAgreesWithLinearScan() throws {
        for (_, manifest) in try Self.manifests() {
            var random = SplitMix64(seed: 0x5EED_0001)
            var names = manifest.destinations.map(\.name)
            names += ["", "x", "é", "e\u{301}", "\u{E9}", "nowhere", "unknownScreen", "ø", "o\u{338}"]
            for name in manifest.destinations.map(\.name) {
                names.append(name + "x")
                names.append(String(name.dropLast()))
                names.append(String(name.reversed()))
                names.append(name.uppercased())
                names.append(name + "\u{301}")
                names.append(String(name.utf8.map { _ in Character("a") }))
            }
            for _ in 0..<2_000 {
                let length = Int.random(in: 0...6, using: &random)
                names.append(String((0..<length).map { _ in "abeé\u{301}ms".randomElement(using: &random) ?? "a" }))
            }
            for name in names {
                let expected = manifest.destinations.firstIndex { $0.name == name }
                #expect(manifest.rules.index(named: name) == expected, "\(name.debugDescription)")
            }
        }
    }
}
