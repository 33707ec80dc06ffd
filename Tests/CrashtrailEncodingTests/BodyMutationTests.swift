import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailEncoding

@Suite("Mutated bodies inside valid deflate streams")
struct BodyMutationTests {
    /// Iterations; `CRASHTRAIL_FUZZ_ITERATIONS` raises it for a longer local run.
    static let iterations = ProcessInfo.processInfo.environment["CRASHTRAIL_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 3_000

    @Test("bit flips, cuts and inserted bytes in the inflated body never crash the body decoder")
    func mutatedBodies() throws {
        // Given real bodies (with and without a manifest), re-deflated after mutation under a correct header
        let manifests = [TrailFixtures.pirateBay, TrailFixtures.harbor]
        let codec = TrailCodec(manifests: manifests)
        var samples: [(body: TrailBodyEncoder.Body, dictionary: ManifestDictionary?, json: [UInt8])] = []
        for seed in 0..<24 {
            let trail = TrailFixtures.randomTrail(manifest: manifests[seed % 2], seed: UInt64(7_000 + seed))
            let dictionary = seed % 3 == 0 ? nil : codec.dictionary(for: trail)
            var encoder = TrailBodyEncoder(dictionary: dictionary)
            samples.append((encoder.encode(trail), dictionary, trail.canonicalJSON))
        }
        samples.append(
            {
                let trail = TrailFixtures.hundredStepTrail()
                var encoder = TrailBodyEncoder(dictionary: codec.dictionary(for: trail))
                return (encoder.encode(trail), codec.dictionary(for: trail), trail.canonicalJSON)
            }())
        var random = SplitMix64(seed: 0xB0D1)
        var refused = 0
        for _ in 0..<Self.iterations {
            let sample = samples[Int.random(in: 0..<samples.count, using: &random)]
            var body = sample.body
            BodyMutation.mutate(&body, using: &random)
            var out = ByteWriter()
            TrailHeader(dictionaryID: sample.dictionary?.id, bodyLength: body.structure.count, checksum: RawDeflate.crc32(sample.json))
                .write(into: &out)
            out.append(try RawDeflate.deflate(body.structure, dictionary: sample.dictionary?.presetDictionary ?? []))
            out.append(body.raw)
            // When it is decoded, then it is refused, or it is the same trail (a mutation with no effect).
            do {
                let decoded = try codec.decodeBinary(out.bytes)
                #expect(decoded.canonicalJSON == sample.json)
            } catch {
                // A cut raw column is where the input ends: refused as truncated.
                #expect(error.code == .corruptBody || error.code == .badChecksum || error.code == .truncated, "\(error)")
                refused += 1
            }
        }
        #expect(refused > Self.iterations * 9 / 10)
    }
}
