import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailEncoding

/// The binary decoder writes a trail's canonical JSON itself, from the body's step codes and each table slot's
/// JSON written once; `TrailCanonicalWriter` (`Trail.canonicalJSON`) stays the reference it must equal.
@Suite("Decoded canonical JSON equals the reference writer's")
struct DecodedJSONTests {
    /// Checks that decoding `bytes` with `codec` gives the reference writer's bytes, when it decodes at all.
    /// - Returns: whether `bytes` decoded.
    @discardableResult
    static func expectReferenceJSON(_ bytes: [UInt8], codec: TrailCodec, _ comment: String) -> Bool {
        guard let decoded = try? codec.decodeKeepingJSON(bytes) else { return false }
        #expect(decoded.canonicalJSON == decoded.trail.canonicalJSON, "\(comment)")
        return true
    }

    @Test("seeded trails of every op, with and without the manifest", arguments: 0..<120)
    func generatedTrails(seed: UInt64) throws {
        for manifest in [TrailFixtures.pirateBay, TrailFixtures.harbor] {
            // Given a generated trail: every op, odd strings and payloads, replayed and arbitrary finals
            let trail = TrailFixtures.randomTrail(manifest: manifest, seed: seed, maximumSteps: 300)
            for codec in [TrailCodec(manifests: [manifest]), TrailCodec()] {
                // When it is encoded and decoded
                let binary = try codec.encodeBinary(trail)
                let decoded = try codec.decodeKeepingJSON(binary)
                // Then the decoder's JSON is the reference writer's, for the decoded trail and the original
                #expect(decoded.canonicalJSON == decoded.trail.canonicalJSON, "seed \(seed), \(manifest.app)")
                #expect(decoded.canonicalJSON == trail.canonicalJSON, "seed \(seed), \(manifest.app)")
                #expect(decoded.trail == trail, "seed \(seed), \(manifest.app)")
            }
        }
    }

    @Test("long trails that reuse table slots, printed links and conditions")
    func longTrails() throws {
        let manifest = TrailFixtures.pirateBay
        let codec = TrailCodec(manifests: [manifest])
        for seed in UInt64(1)...6 {
            // Given a long trail whose destinations repeat, with printed deep links to them
            let trail = TrailFixtures.longTrailWithPrintedLinks(manifest: manifest, seed: seed)
            // When it is encoded and decoded, Then the JSON is the reference writer's
            let decoded = try codec.decodeKeepingJSON(try codec.encodeBinary(trail))
            #expect(decoded.canonicalJSON == trail.canonicalJSON, "seed \(seed)")
            #expect(decoded.trail == trail, "seed \(seed)")
        }
    }

    @Test("every conformance trail")
    func conformanceTrails() throws {
        let suite = try ConformanceSuite.required()
        for navigationCase in try suite.navigationCases() {
            let trail = try Trail(json: navigationCase.trailBytes)
            let manifest = try suite.manifest(named: navigationCase.manifestName)
            for codec in [TrailCodec(manifests: [manifest]), TrailCodec()] {
                #expect(Self.expectReferenceJSON(try codec.encodeBinary(trail), codec: codec, navigationCase.name))
            }
        }
    }

    @Test("every sample trail and fuzz corpus input that decodes")
    func corpusInputs() throws {
        // Given every trail input kept in the repository: samples and the fuzz corpora of every form
        let root = TrailFixtures.packageRoot
        let codec = TrailCodec(manifests: [TrailFixtures.pirateBay, TrailFixtures.harbor])
        var files: [URL] = [root.appendingPathComponent("Samples/trails/ips-joined-by-pid.ctr")]
        for folder in ["fuzz-trail-binary", "fuzz-trail-text", "fuzz-trail-keys", "fuzz-trail-json"] {
            let url = root.appendingPathComponent("Tools/Fuzz/Corpus").appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            files += names.map { url.appendingPathComponent($0) }
        }
        var decodedCount = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            // When each is decoded, Then a trail that decodes carries the reference writer's JSON
            if Self.expectReferenceJSON(bytes, codec: codec, file.lastPathComponent) { decodedCount += 1 }
            // and so does every binary trail those inputs re-encode to
            if let trail = try? codec.decode(bytes) {
                #expect(
                    Self.expectReferenceJSON(try codec.encodeBinary(trail), codec: codec, "\(file.lastPathComponent), re-encoded"),
                    "\(file.lastPathComponent): a decoded trail, encoded again, must decode")
            }
        }
        #expect(decodedCount > 0)
    }

    @Test("Mutated version 1 bodies: the decoder accepts what the document's decoder accepts, as the same trail and JSON")
    func mutatedBodiesMatchTheDocument() throws {
        // Given real bodies with and without a manifest, each mutated by a flip, a new byte, a cut or an insertion
        let manifests = [TrailFixtures.pirateBay, TrailFixtures.harbor]
        let codec = TrailCodec(manifests: manifests)
        var samples: [(body: [UInt8], dictionary: ManifestDictionary?)] = []
        for seed in 0..<24 {
            let trail = TrailFixtures.randomTrail(manifest: manifests[seed % 2], seed: UInt64(9_000 + seed), maximumSteps: 80)
            let dictionary = seed % 3 == 0 ? nil : codec.dictionary(for: trail)
            // Format version 1's bodies, which the production decoder still reads.
            var encoder = TrailBodyEncoder(dictionary: dictionary, formatVersion: 1)
            samples.append((encoder.encode(trail).version1.deflated, dictionary))
        }
        var random = SplitMix64(seed: 0xD1FF)
        var decodedCount = 0
        for iteration in 0..<4_000 {
            let sample = samples[Int.random(in: 0..<samples.count, using: &random)]
            var body = sample.body
            if iteration > 0 { BodyMutation.mutate(&body, using: &random) }
            // When both decoders read it
            var independent = IndependentTrailDecoder(manifest: sample.dictionary?.manifest)
            var decoder = TrailBodyDecoder(version1Body: body, dictionary: sample.dictionary)
            let expected = Result { try independent.decode(version1Body: body) }
            let actual: Result<DecodedTrail, ByteReader.ReadError> = Result { () throws(ByteReader.ReadError) in try decoder.decode() }
            // Then both accept it as the same trail, whose JSON is the reference writer's, or both refuse it
            switch (expected, actual) {
            case (.success(let trail), .success(let decoded)):
                #expect(decoded.trail == trail, "iteration \(iteration)")
                #expect(decoded.canonicalJSON == trail.canonicalJSON, "iteration \(iteration)")
                decodedCount += 1
            case (.failure, .failure):
                break
            default:
                Issue.record("iteration \(iteration): the document's decoder gave \(expected) but the decoder \(actual)")
            }
        }
        #expect(decodedCount > 100)
    }
}
