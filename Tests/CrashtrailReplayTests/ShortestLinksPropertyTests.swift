import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Foundation
import Testing

/// For thousands of seeded random trails over the conformance manifests, the shortest links reproduce the
/// final state whenever they say they do, are never longer than the screens they rebuild, and stop at the
/// first screen they cannot link.
@Suite("Shortest links on generated trails")
struct ShortestLinksPropertyTests {
    static let manifestNames = ["piratebay.yml", "lighthouse.yml"]

    @Test("links reproduce what they claim and are never longer than the stacks", arguments: manifestNames)
    func linksHoldForGeneratedTrails(_ manifestName: String) throws {
        let suite = try ConformanceSuite.required()
        let manifest = try suite.manifest(named: manifestName)
        var checked = 0
        var reproducing = 0
        for seed in UInt64(1)...2_000 {
            // Given a random trail from launch
            var generator = RandomStepGenerator(manifest: manifest, seed: seed &* 0x9E37_79B9 &+ UInt64(manifestName.count))
            let steps = generator.steps(count: Int(seed % 60) + 1)
            var engine = NavigationEngine(manifest: manifest)
            engine.apply(steps)
            let final = engine.state

            // When its shortest links are computed
            let links = ShortestLinks(manifest: manifest, final: final)

            // Then they are never longer than the screens they rebuild
            let stackScreens: Int = final.stacks.reduce(0) { $0 + $1.count }
            let modalScreens: Int = final.modals.reduce(0) { $0 + $1.count }
            let screens = stackScreens + modalScreens + (final.pending == nil ? 0 : 1)
            #expect(links.urls.count <= screens, "seed \(seed): \(links.urls.count) links for \(screens) screens")
            // and an unlinkable screen means they do not reproduce
            if !links.unreproducible.isEmpty {
                #expect(!links.reproduces, "seed \(seed): unreproducible screens but reproduces is true")
            }
            // and when every screen can be linked, states reached from launch are reproduced
            if links.unreproducible.isEmpty {
                #expect(links.reproduces, "seed \(seed): \(links.mismatch?.description ?? "")")
            }
            // and when they claim to reproduce, applying them from launch does, checked independently here
            if links.reproduces {
                reproducing += 1
                let reached = Self.applyLinks(links, manifest: try suite.manifest(named: manifestName))
                #expect(reached.tab == final.tab, "seed \(seed): tab")
                #expect(reached.stacks == final.stacks, "seed \(seed): stacks")
                #expect(reached.modals == final.modals, "seed \(seed): modals")
                #expect(reached.pending?.destination == final.pending?.destination, "seed \(seed): pending")
            }
            checked += 1
        }
        #expect(checked == 2_000)
        // The generator makes plenty of linkable states; a property that never applies would prove nothing.
        #expect(reproducing > 500, "only \(reproducing) of \(checked) generated states were reproducible")
    }

    @Test("every generated trail renders in every format; the JSON is canonical", arguments: manifestNames)
    func everyTrailRenders(_ manifestName: String) throws {
        let suite = try ConformanceSuite.required()
        let manifest = try suite.manifest(named: manifestName)
        let replayer = Replayer(manifest: manifest)
        for seed in UInt64(1)...300 {
            var generator = RandomStepGenerator(manifest: manifest, seed: seed &* 7_919)
            let trail = Trail(
                app: .init(bundleID: manifest.app, version: "1", build: "1"),
                session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1),
                steps: generator.steps(count: Int(seed % 40)))
            let replay = replayer.replay(trail, report: "seed-\(seed)")
            for format in ReplayFormat.allCases {
                let output = ReplayRenderer.render(replay, as: format, options: RenderOptions(colour: seed % 2 == 0))
                #expect(format == .urls || output.hasSuffix("\n"), "seed \(seed) \(format)")
                if format == .json {
                    let value = try JSONParser.parse(Array(output.utf8))
                    #expect(CanonicalJSON.string(of: value) + "\n" == output, "seed \(seed)")
                    #expect(value["final"] == replay.final.jsonValue)
                    #expect(output == CanonicalJSON.string(of: replay.jsonValue) + "\n", "seed \(seed)")
                }
            }
        }
    }

    /// Applies the links as `open` steps far apart, SPEC section 9's check done independently: on ``SpecEngine`` (the
    /// rules written from the SPEC, not the engine that set `reproduces`), over a manifest loaded again from its file,
    /// whose conditions are the preconditions.
    static func applyLinks(_ links: ShortestLinks, manifest: Manifest) -> NavigationState {
        var launch = SpecEngine(manifest: manifest).state
        launch.conditions = Set(links.preconditions)
        var engine = SpecEngine(manifest: manifest, state: launch)
        for (index, url) in links.urls.enumerated() {
            engine.apply(Step(t: Int64(index) * 3_600_000, .open(.url(url))))
        }
        return engine.state
    }
}
