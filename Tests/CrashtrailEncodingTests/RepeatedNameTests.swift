import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailEncoding

/// Hostile bodies that spell a known name again read as the document's decoder reads them.
///
/// The decoder finds what a name expects by the name's id, the first table entry with the same UTF-8 bytes, where
/// ``IndependentTrailDecoder`` looks it up by the bytes.
@Suite("Names spelled again decode as the document says")
struct RepeatedNameTests {
    @Test("the dictionary's name ids point at the first name with the same bytes, and its shapes agree")
    func dictionaryNameIDs() throws {
        for manifest in [TrailFixtures.pirateBay, TrailFixtures.harbor] {
            let dictionary = ManifestDictionary(manifest: manifest)
            #expect(dictionary.nameIDs.count == dictionary.names.count)
            for (index, name) in dictionary.names.enumerated() {
                let bytes = Array(name.utf8)
                let first = try #require(dictionary.names.firstIndex { Array($0.utf8) == bytes })
                #expect(dictionary.nameIDs[index] == first)
                #expect(dictionary.nameIDsByBytes[bytes] == first)
                #expect(dictionary.expectedShapesByNameID[index] == dictionary.expectedShapes[bytes] ?? -1)
            }
        }
    }

    @Test(
        "Bodies written without the dictionary, read with it, spell its names again: the same trail as the document's decoder, or refused by both"
    )
    func bodiesSpellingDictionaryNames() throws {
        // Given bodies whose tables start empty, so every name is spelled, read with a dictionary that already
        // holds those names (and shifted indexes), some further damaged
        let manifests = [TrailFixtures.pirateBay, TrailFixtures.harbor]
        var random = SplitMix64(seed: 0xD0_0B1E)
        var decodedCount = 0
        var failedCount = 0
        for seed in 0..<600 {
            let manifest = manifests[seed % 2]
            let trail = TrailFixtures.randomTrail(manifest: manifest, seed: UInt64(31_000 + seed), maximumSteps: 60)
            // Format version 1's bodies, which the production decoder still reads.
            var encoder = TrailBodyEncoder(dictionary: nil, formatVersion: 1)
            var body = encoder.encode(trail).version1.deflated
            if seed % 3 == 2, !body.isEmpty {
                body[Int.random(in: 0..<body.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let dictionary = ManifestDictionary(manifest: manifest)
            // When both decoders read it
            var independent = IndependentTrailDecoder(manifest: manifest)
            var decoder = TrailBodyDecoder(version1Body: body, dictionary: dictionary)
            let expected = Result { try independent.decode(version1Body: body) }
            let actual: Result<DecodedTrail, ByteReader.ReadError> = Result { () throws(ByteReader.ReadError) in try decoder.decode() }
            // Then they agree
            switch (expected, actual) {
            case (.success(let trail), .success(let decoded)):
                #expect(decoded.trail == trail, "seed \(seed)")
                #expect(decoded.canonicalJSON == trail.canonicalJSON, "seed \(seed)")
                decodedCount += 1
            case (.failure, .failure):
                failedCount += 1
            default:
                Issue.record("seed \(seed): the document's decoder gave \(expected) but the decoder \(actual)")
            }
        }
        #expect(decodedCount > 50)
        #expect(failedCount > 50)
    }
}
