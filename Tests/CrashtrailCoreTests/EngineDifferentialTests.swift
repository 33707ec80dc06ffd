import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailCore

/// A refactor guard, not a check of the rules (``EngineOracleTests`` checks them against the SPEC):
/// ``NavigationEngine`` against ``ReferenceNavigationEngine``, a copy of the engine before the replay entry that records no
/// anomalies, reserved stack capacity and the cheaper rule lookup: the same states and anomalies on seeded steps.
@Suite("Engine refactor guard")
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

    @Test("Refactor guard: apply and applyDiscardingAnomalies match the pre-optimization copy on 3,000 seeded step sequences per manifest")
    func engineAgreesWithReference() throws {
        for (name, manifest) in try Self.manifests() {
            for seed in 0..<3_000 {
                // Given seeded steps, some from a random valid base
                var generator = RandomStepGenerator(manifest: manifest, seed: 0xE16E_0000 &+ UInt64(seed))
                let steps = generator.steps(count: 1 + seed % 97)
                var baseEngine = ReferenceNavigationEngine(manifest: manifest)
                for step in generator.steps(count: 12) { baseEngine.apply(step) }
                let base: NavigationState? = seed % 5 == 0 ? baseEngine.state : nil
                var reference = ReferenceNavigationEngine(manifest: manifest, state: base)
                var engine = NavigationEngine(manifest: manifest, state: base)
                var discarding = NavigationEngine(manifest: manifest, state: base)
                // When each applies them, one at a time and (for the discarding one) recording nothing
                var expected: [NavigationAnomaly] = []
                var actual: [NavigationAnomaly] = []
                for step in steps {
                    expected += reference.apply(step)
                    actual += engine.apply(step)
                    discarding.applyDiscardingAnomalies(step)
                    // Then every intermediate state, count and transition agrees
                    #expect(engine.state == reference.state, "\(name) seed \(seed)")
                    #expect(discarding.state == reference.state, "\(name) seed \(seed)")
                    let transition = reference.transition.map { [$0.start, Int64($0.step)] }
                    #expect(engine.transition.map { [$0.start, Int64($0.step)] } == transition)
                    #expect(discarding.transition.map { [$0.start, Int64($0.step)] } == transition)
                }
                #expect(actual == expected, "\(name) seed \(seed)")
                #expect(engine.stepCount == reference.stepCount && discarding.stepCount == reference.stepCount)
                // And the sequence form gives the same anomalies
                var whole = NavigationEngine(manifest: manifest, state: base)
                #expect(whole.apply(steps) == expected, "\(name) seed \(seed)")
                #expect(whole.state == reference.state)
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
