import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailEncoding

@Suite("Round trips are exact")
struct RoundTripTests {
    @Test("every conformance trail round-trips in every form, byte for byte")
    func conformanceTrails() throws {
        let suite = try ConformanceSuite.required()
        let cases = try suite.navigationCases()
        #expect(!cases.isEmpty)
        for navigationCase in cases {
            // Given the case's trail and its manifest
            let trail = try Trail(json: navigationCase.trailBytes)
            let manifest = try suite.manifest(named: navigationCase.manifestName)
            for codec in [TrailCodec(manifests: [manifest]), TrailCodec()] {
                for form in [TrailForm.binary, .text, .keys(limit: 64), .keys()] {
                    // When it is encoded and decoded
                    let encoded = try codec.encode(trail, as: form)
                    let decoded = try codec.decode(encoded)
                    // Then the canonical JSON is the same bytes
                    #expect(decoded.canonicalJSON == trail.canonicalJSON, "\(navigationCase.name) as \(form.name)")
                }
            }
            // The plain JSON form decodes too.
            #expect(try TrailCodec().decode(navigationCase.trailBytes).canonicalJSON == trail.canonicalJSON)
        }
    }

    @Test("thousands of generated trails round-trip, with and without their manifest", arguments: [0, 1, 2, 3])
    func generatedTrails(shard: Int) throws {
        let manifests = [TrailFixtures.pirateBay, TrailFixtures.harbor]
        let withManifests = TrailCodec(manifests: manifests)
        let without = TrailCodec()
        for index in 0..<600 {
            let seed = UInt64(shard * 600 + index)
            let trail = TrailFixtures.randomTrail(manifest: manifests[index % 2], seed: seed)
            let json = trail.canonicalJSON
            let binary = try withManifests.encodeBinary(trail)
            #expect(try withManifests.decodeBinary(binary).canonicalJSON == json, "seed \(seed)")
            if index % 4 == 0 {
                #expect(try without.decode(try without.encode(trail, as: .text)).canonicalJSON == json, "seed \(seed)")
            }
        }
    }

    @Test("canonically equivalent but different strings stay different")
    func unicodeNormalization() throws {
        let composed = Destination("item", ["id": "é"])
        let decomposed = Destination("item", ["id": "e\u{301}"])
        let trail = Trail(
            app: Trail.AppInfo(bundleID: "com.example.piratebay", version: "é", build: "e\u{301}"),
            session: Trail.Session(id: "x", started: "y", pid: 1),
            steps: [
                Step(t: 0, .push(composed)), Step(t: 1, .push(decomposed)), Step(t: 2, .satisfy("é")), Step(t: 3, .satisfy("e\u{301}")),
            ])
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
        let decoded = try codec.decode(try codec.encode(trail, as: .binary))
        #expect(decoded.canonicalJSON == trail.canonicalJSON)
    }

    @Test("text and keys forms of the public API agree with decode(_:)")
    func textAndKeysEntryPoints() throws {
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
        let trail = TrailFixtures.hundredStepTrail()
        let text = try codec.encodeText(trail)
        #expect(try codec.decode(text: "  \n" + text + "\n").canonicalJSON == trail.canonicalJSON)
        let keys = try codec.encodeKeys(trail, limit: 100)
        #expect(keys.count > 1)
        #expect(keys.values.allSatisfy { $0.count <= 100 })
        var report = keys
        report["otherCustomKey"] = "kept out of the trail"
        #expect(try codec.decode(keys: report).canonicalJSON == trail.canonicalJSON)
    }

    @Test("the ct1: text of a realistic 100-step trail fits one 1,024-character value")
    func hundredStepTextFits() throws {
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
        let text = try codec.encodeText(TrailFixtures.hundredStepTrail())
        #expect(text.count <= 1_024, "ct1: text is \(text.count) characters")
        #expect(try codec.encodeKeys(TrailFixtures.hundredStepTrail()).count == 1)
    }

    @Test("encoding is deterministic")
    func deterministic() throws {
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
        let trail = TrailFixtures.hundredStepTrail()
        #expect(try codec.encode(trail, as: .binary) == codec.encode(trail, as: .binary))
    }
}
