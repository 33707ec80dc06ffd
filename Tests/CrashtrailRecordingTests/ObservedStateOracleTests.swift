import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 11: every state the Navigator can reach from the one before is recorded, with the fewest steps.
///
/// The oracle walks SPEC section 4's rules on `SpecEngine` (written from the SPEC alone): seeded random steps give each
/// manifest's state sequences (flows, pending destinations, gates, tab resets), and a breadth-first search over
/// section 11's ops checks that no shorter sequence reaches each observed state.
@Suite("Observed states against a search oracle")
struct ObservedStateOracleTests {
    /// Every sample and conformance manifest.
    static func manifests() throws -> [(name: String, manifest: Manifest)] {
        let root = PackageRoot.url
        var files = [
            root.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"),
            root.appendingPathComponent("Samples/Harbor/harbor.yml"),
            root.appendingPathComponent("Samples/trails-golden/lighthouse.yml"),
        ]
        let suite = try ConformanceSuite.required()
        files += ["piratebay.yml", "lighthouse.yml"].map { suite.folder.appendingPathComponent($0) }
        return try files.map { ($0.path, try Manifest(contentsOf: $0)) }
    }

    /// The states a seeded random walk passes through, each different from the one before and made only of the
    /// manifest's destinations.
    static func states(_ manifest: Manifest, seed: UInt64, steps: Int) -> [NavigationState] {
        var generator = RandomStepGenerator(manifest: manifest, seed: seed)
        var engine = SpecEngine(manifest: manifest)
        var states = [engine.state]
        for step in generator.steps(count: steps) {
            _ = engine.apply(step)
            let state = engine.state
            let screens = Array(state.stacks.joined()) + Array(state.modals.joined()) + (state.pending.map { [$0.destination] } ?? [])
            guard screens.allSatisfy({ manifest.spec(named: $0.name) != nil }), state != states.last else { continue }
            states.append(state)
        }
        return states
    }

    @Test("Every reachable observed state is recorded, and none with more steps than the search finds", arguments: 0..<5)
    func agreesWithTheSearch(manifestIndex: Int) throws {
        let (name, manifest) = try Self.manifests()[manifestIndex]
        var observations = 0
        var searched = 0
        for seed in 0..<2_000 {
            // Given a seeded sequence of states the Navigator went through
            let states = Self.states(manifest, seed: UInt64(seed) &* 0x9E37_79B9 &+ UInt64(manifestIndex), steps: 1 + seed % 25)
            var diff = try ObservedStateDiff(manifest: manifest, first: states[0])
            for (index, state) in states.enumerated().dropFirst() {
                // When each is observed 10 s after the one before
                let t = Int64(index) * 10_000
                let before = states[index - 1]
                let steps: [Step]
                do {
                    steps = try diff.steps(to: state, at: t, after: t - 10_000)
                } catch {
                    Issue.record("\(name), seed \(seed), observation \(index): \(error)\nfrom \(before)\nto \(state)")
                    break
                }
                observations += 1
                // Then no shorter sequence of section 11's ops reaches it (searched up to two steps)
                if steps.count <= 3, steps.count > 1 {
                    searched += 1
                    let shortest = StateSearch(manifest: manifest, from: before, to: state).shortest(limit: steps.count - 1)
                    #expect(shortest == nil, "\(name), seed \(seed): \(steps.map(\.op)) but \(shortest ?? []) reaches it")
                }
            }
        }
        #expect(observations > 5_000, "\(name): \(observations) observations")
        #expect(searched > 200, "\(name): \(searched) searched")
    }
}

/// A breadth-first search over SPEC section 11's ops on `SpecEngine`, with steps spaced so that no modal transition
/// collides: the fewest ops from one state to another, within a limit.
struct StateSearch {
    let manifest: Manifest
    let from: NavigationState
    let to: NavigationState

    /// The ops worth trying: requests of every destination either state holds, every tab root and gate, pops,
    /// dismissals, tab selections and every condition satisfied or revoked.
    var ops: [Step.Operation] {
        var destinations: [Destination] = []
        for state in [from, to] {
            destinations += Array(state.stacks.joined()) + Array(state.modals.joined())
            if let pending = state.pending { destinations.append(pending.destination) }
        }
        destinations += manifest.tabs.map { Destination($0) } + manifest.destinations.filter(\.gate).map { Destination($0.name) }
        var seen = Set<Destination>()
        destinations = destinations.filter { seen.insert($0).inserted }
        var ops: [Step.Operation] = [.pop, .popToRoot, .dismiss]
        ops += destinations.flatMap { [Step.Operation.push($0), .present($0), .open(.destination($0))] }
        ops += manifest.tabs.indices.map { Step.Operation.select(tab: Int64($0)) }
        ops += manifest.conditions.flatMap { [Step.Operation.satisfy($0.name), .revoke($0.name)] }
        return ops
    }

    /// The fewest ops (at most `limit`) that reach `to`, or nil when none that short does.
    func shortest(limit: Int) -> [Step.Operation]? {
        let ops = self.ops
        let spacing = manifest.modalTransition + 1
        var frontier: [(state: NavigationState, path: [Step.Operation])] = [(from, [])]
        var seen: Set<NavigationState> = [from]
        for depth in 1...max(1, limit) where depth <= limit {
            var next: [(state: NavigationState, path: [Step.Operation])] = []
            for (state, path) in frontier {
                for op in ops {
                    var engine = SpecEngine(manifest: manifest, state: state)
                    _ = engine.apply(Step(t: spacing * Int64(depth), op))
                    let reached = engine.state
                    if reached == to { return path + [op] }
                    if seen.insert(reached).inserted { next.append((reached, path + [op])) }
                }
            }
            frontier = next
        }
        return nil
    }
}
