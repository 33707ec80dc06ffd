import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// ``NavigationEngine`` against ``SpecEngine``, an engine written from SPEC section 4 alone, and properties the SPEC
/// states that hold for every sequence of steps.
@Suite("Engine against the SPEC")
struct EngineOracleTests {
    static func manifests() throws -> [(name: String, manifest: Manifest)] {
        var manifests = [
            (
                "piratebay.yml",
                try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
            ),
            ("harbor.yml", try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/Harbor/harbor.yml"))),
            (
                "trails-golden/lighthouse.yml",
                try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/trails-golden/lighthouse.yml"))
            ),
        ]
        manifests.append(("conformance piratebay.yml", try ConformanceSuite.required().manifest(named: "piratebay.yml")))
        return manifests
    }

    static func anomalies(_ anomalies: [NavigationAnomaly]) -> [SpecEngine.Anomaly] {
        anomalies.map { SpecEngine.Anomaly(step: $0.step, kind: $0.kind.rawValue, after: $0.after) }
    }

    @Test("The oracle itself passes the conformance suite")
    func oraclePassesTheSuite() throws {
        let suite = try ConformanceSuite.required()
        let cases = try suite.navigationCases()
        #expect(cases.count > 50)
        for testCase in cases {
            let manifest = try suite.manifest(named: testCase.manifestName)
            let trail = try Trail(json: testCase.trailBytes)
            var oracle = SpecEngine(manifest: manifest, state: trail.base)
            let anomalies = oracle.apply(trail.steps).map { "\($0.step):\($0.kind)" }
            let expectedFinal = try NavigationState(jsonValue: try #require(testCase.expected["final"]), path: "final")
            #expect(oracle.state == expectedFinal, "\(testCase.name)")
            let expected = try #require(testCase.expected["anomalies"]?.arrayValue).map {
                "\($0["step"]?.intValue ?? -1):\($0["kind"]?.stringValue ?? "")"
            }
            #expect(anomalies == expected, "\(testCase.name)")
        }
    }

    @Test("The engine gives the oracle's states, anomalies and collisions on 2,000 seeded sequences per manifest")
    func engineAgreesWithTheOracle() throws {
        var collisions = 0
        for (name, manifest) in try Self.manifests() {
            for seed in 0..<2_000 {
                // Given seeded steps, some from a random valid base
                var generator = RandomStepGenerator(manifest: manifest, seed: 0x0AC1_E000 &+ UInt64(seed))
                var warmUp = SpecEngine(manifest: manifest)
                warmUp.apply(generator.steps(count: 15))
                let base: NavigationState? = seed % 4 == 0 ? warmUp.state : nil
                let steps = generator.steps(count: 1 + seed % 80)
                var oracle = SpecEngine(manifest: manifest, state: base)
                var engine = NavigationEngine(manifest: manifest, state: base)
                // When both apply them one at a time
                for (index, step) in steps.enumerated() {
                    let expected = oracle.apply(step)
                    let actual = Self.anomalies(engine.apply(step))
                    // Then every state and every anomaly agrees
                    #expect(actual == expected, "\(name) seed \(seed) step \(index) \(step.op.name)")
                    #expect(engine.state == oracle.state, "\(name) seed \(seed) step \(index) \(step.op.name)")
                    collisions += expected.filter { $0.kind == "transition-collision" }.count
                }
                if engine.state != oracle.state { break }
            }
        }
        // Sequences that never collide would not test the transition rules.
        #expect(collisions > 1_000, "only \(collisions) collisions in the generated sequences")
    }

    @Test("Property: a gate leaves one stack per tab, each its root, or a single stack holding only the gate")
    func gateResetsStacks() throws {
        var checked = 0
        for (name, manifest) in try Self.manifests() {
            let gates = manifest.destinations.filter(\.gate)
            for seed in 0..<300 where !gates.isEmpty {
                var generator = RandomStepGenerator(manifest: manifest, seed: 0x6A7E &+ UInt64(seed))
                var engine = NavigationEngine(manifest: manifest)
                engine.apply(generator.steps(count: 1 + seed % 40))
                let gate = gates[seed % gates.count]
                guard gate.requires.allSatisfy(engine.state.conditions.contains) else { continue }
                let t = 10_000_000 + Int64(seed)
                engine.apply(Step(t: t, .push(Destination(gate.name))))
                let state = engine.state
                #expect(state.modals.isEmpty && state.pending == nil, "\(name) seed \(seed)")
                if let tab = manifest.tabs.firstIndex(of: gate.name) {
                    #expect(state.tab == tab)
                    #expect(state.stacks == manifest.tabs.map { [Destination($0)] }, "\(name) seed \(seed)")
                } else {
                    #expect(state.tab == nil)
                    #expect(state.stacks == [[Destination(gate.name)]], "\(name) seed \(seed)")
                }
                checked += 1
            }
        }
        #expect(checked > 300, "only \(checked) gates were applied")
    }

    @Test("Property: popToRoot then pop is pop-at-root and changes nothing")
    func popToRootThenPop() throws {
        for (name, manifest) in try Self.manifests() {
            for seed in 0..<500 {
                var generator = RandomStepGenerator(manifest: manifest, seed: 0x9090 &+ UInt64(seed))
                var engine = NavigationEngine(manifest: manifest)
                let steps = generator.steps(count: 1 + seed % 50)
                engine.apply(steps)
                let t = (steps.last?.t ?? 0) + 1
                engine.apply(Step(t: t, .popToRoot))
                let afterPopToRoot = engine.state
                #expect(afterPopToRoot.topStack.count == 1, "\(name) seed \(seed)")
                let anomalies = engine.apply(Step(t: t + 1, .pop))
                #expect(anomalies.map(\.kind) == [.popAtRoot], "\(name) seed \(seed)")
                #expect(engine.state == afterPopToRoot, "\(name) seed \(seed)")
            }
        }
    }
}
