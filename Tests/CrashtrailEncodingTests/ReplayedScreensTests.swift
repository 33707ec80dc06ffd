import CrashtrailCore
import CrashtrailTestSupport
import Testing

@testable import CrashtrailEncoding

/// Ingest stores the screen path the decoder saw while rebuilding a replayed final state instead of replaying the
/// trail again; it must be exactly the path `ScreenPath.names(of:manifest:)` replays.
@Suite("The decoder's replayed screens are the screen path")
struct ReplayedScreensTests {
    @Test("seeded trails of every op, with a replayed final", arguments: 0..<120)
    func generatedTrails(seed: UInt64) throws {
        for manifest in [TrailFixtures.pirateBay, TrailFixtures.harbor] {
            // Given a generated trail whose final state the encoder can mark as replayed
            var trail = TrailFixtures.randomTrail(manifest: manifest, seed: seed, maximumSteps: 300)
            var engine = NavigationEngine(manifest: manifest, state: trail.base)
            engine.apply(trail.steps)
            trail.final = engine.state
            let codec = TrailCodec(manifests: [manifest])
            // When it is encoded and decoded with its manifest
            let decoded = try codec.decodeKeepingJSON(try codec.encodeBinary(trail))
            // Then, when the decoder replayed it, its screens are the replayed screen path
            let expected = ScreenPath.names(of: trail, manifest: manifest)
            if let replayed = decoded.replayedScreens {
                #expect(replayed.names == expected, "seed \(seed), \(manifest.app)")
                #expect(replayed.names(replayedWith: manifest) == expected)
                #expect(replayed.manifest == manifest.fingerprint)
            } else {
                // the encoder marks a final as replayed only for a trail of the manifest's app, replayable in range
                #expect(
                    decoded.dictionaryID == nil || trail.app.bundleID != manifest.app
                        || !TrailBodyEncoder.canReplay(trail.steps, manifest: manifest),
                    "seed \(seed): replayable but not replayed")
            }
        }
    }

    @Test("long trails with printed links, and the path is refused for another manifest")
    func printedLinks() throws {
        let manifest = TrailFixtures.pirateBay
        let codec = TrailCodec(manifests: [manifest])
        for seed in UInt64(1)...6 {
            // Given a long trail that opens printed deep links, with its replayed final state
            var generator = RandomStepGenerator(manifest: manifest, seed: seed)
            var steps = generator.steps(count: 2_000)
            for index in steps.indices where index % 7 == 0 {
                if case .push(let destination) = steps[index].op, let url = manifest.url(for: destination) {
                    steps[index].op = .open(.url(url))
                }
            }
            var engine = NavigationEngine(manifest: manifest)
            engine.apply(steps)
            let trail = Trail(
                app: Trail.AppInfo(bundleID: manifest.app, version: "3.1.0", build: "412"),
                session: Trail.Session(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05Z", pid: 7),
                base: seed.isMultiple(of: 2) ? manifest.launchState : nil, steps: steps, final: engine.state)
            // When it is decoded
            let replayed = try #require(try codec.decodeKeepingJSON(try codec.encodeBinary(trail)).replayedScreens)
            // Then the screens are the screen path, and only for the manifest that replayed them
            #expect(replayed.names == ScreenPath.names(of: trail, manifest: manifest), "seed \(seed)")
            #expect(replayed.names(replayedWith: TrailFixtures.harbor) == nil)
        }
    }

    @Test("a trail decoded without its manifest, or as JSON, carries no replayed screens")
    func noReplay() throws {
        let trail = TrailFixtures.hundredStepTrail()
        #expect(try TrailCodec().decodeKeepingJSON(try TrailCodec().encodeBinary(trail)).replayedScreens == nil)
        #expect(DecodedTrail(trail).replayedScreens == nil)
    }
}
