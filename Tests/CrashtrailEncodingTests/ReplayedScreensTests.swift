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
                // the encoder uses no manifest for a trail of another app, so it writes the final state in full
                #expect(decoded.dictionaryID == nil, "seed \(seed): encoded with its manifest but not replayed")
                #expect(trail.app.bundleID != manifest.app, "seed \(seed)")
            }
        }
    }

    @Test("long trails with printed links, and the path is refused for another manifest")
    func printedLinks() throws {
        let manifest = TrailFixtures.pirateBay
        let codec = TrailCodec(manifests: [manifest])
        for seed in UInt64(1)...6 {
            // Given a long trail that opens printed deep links, with its replayed final state
            let trail = TrailFixtures.longTrailWithPrintedLinks(manifest: manifest, seed: seed)
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
