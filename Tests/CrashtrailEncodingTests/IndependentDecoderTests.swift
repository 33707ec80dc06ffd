import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailEncoding

/// The production codec against ``IndependentTrailDecoder``, a decoder written from `docs/ENCODING.md` alone: what the
/// encoder writes is what the document says, and the production decoder reads bodies as the document says.
@Suite("Trail format against its document")
struct IndependentDecoderTests {
    static let manifests = [TrailFixtures.pirateBay, TrailFixtures.harbor]

    /// Decodes a binary trail with the independent decoder, checking the header's length and checksum.
    static func independentDecode(_ binary: [UInt8], manifests: [Manifest]) throws -> Trail {
        let header = try IndependentTrailDecoder.header(binary)
        let manifest: Manifest? =
            header.hasDictionary ? manifests.first { ManifestDictionary(manifest: $0).id == header.dictionaryID } : nil
        if header.hasDictionary, manifest == nil { throw IndependentTrailDecoder.RequestError(description: "no manifest with that id") }
        // The deflate stream is RFC 1951's format, not this project's: inflated by zlib as the codec does.
        let (body, consumed) = try RawDeflate.inflatePrefix(
            Array(binary[header.bodyStart...]), dictionary: manifest.map { ManifestDictionary(manifest: $0).presetDictionary } ?? [],
            cap: 64 << 20)
        #expect(body.count == header.bodyLength, "the header's body length")
        var decoder = IndependentTrailDecoder(manifest: manifest)
        let after = Array(binary[(header.bodyStart + consumed)...])
        let trail: Trail
        if header.version == 1 {
            #expect(after.isEmpty, "version 1: nothing after the deflate stream")
            trail = try decoder.decode(version1Body: body)
        } else {
            trail = try decoder.decode(structure: body, raw: after)
        }
        #expect(IndependentTrailDecoder.crc32(trail.canonicalJSON) == header.checksum, "the header's checksum")
        return trail
    }

    @Test("Seeded trails of every op, with and without a manifest, encode as the document says", arguments: 0..<40)
    func generatedTrails(seed: UInt64) throws {
        for (index, manifest) in Self.manifests.enumerated() {
            // Given a generated trail: every op, odd strings and payloads, replayed and arbitrary finals
            let trail = TrailFixtures.randomTrail(manifest: manifest, seed: seed * 2 + UInt64(index), maximumSteps: 200)
            for codec in [TrailCodec(manifests: [manifest]), TrailCodec()] {
                for formatVersion: UInt8 in [2, 1] {
                    // When the production codec encodes it (as this build does, and as older builds did) and the
                    // independent decoder reads it
                    let binary = try codec.encodeBinary(trail, formatVersion: formatVersion)
                    let decoded = try Self.independentDecode(binary, manifests: [manifest])
                    // Then it is the trail that was encoded
                    #expect(
                        decoded == trail,
                        "seed \(seed), \(manifest.app), dictionary \(!codec.dictionaries.isEmpty), version \(formatVersion)")
                }
            }
        }
    }

    @Test("Numbered strings: new, like the last at their place, mixed with other values, in nested payloads")
    func numberedStrings() throws {
        // Given destinations whose numbered values repeat the prefix and digit count of the last at their place (tag 9),
        // all of them (name flags 3), or none, beside strings that are not numbered
        let values: [(String, String)] = [("L-42", "L-1"), ("L-43", "ø"), ("L-44", "L-2"), ("X-9", "L-3"), ("X-8", "7")]
        var steps: [Step] = []
        for (index, (iban, id)) in values.enumerated() {
            steps.append(Step(t: Int64(index * 1_000), .push(Destination("transaction", ["iban": .string(iban), "id": .string(id)]))))
            steps.append(
                Step(t: Int64(index * 1_000 + 10), .push(Destination("custom", ["ref": .object(["code": .string("INV-00\(index)")])]))))
        }
        let trail = Trail(
            app: .init(bundleID: TrailFixtures.harbor.app, version: "1", build: "1"),
            session: .init(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05Z", pid: 7), steps: steps)
        for codec in [TrailCodec(manifests: [TrailFixtures.harbor]), TrailCodec()] {
            // When encoded by the production codec, Then the document's decoder reads the same trail
            #expect(try Self.independentDecode(try codec.encodeBinary(trail), manifests: [TrailFixtures.harbor]) == trail)
        }
    }

    @Test(
        "Version 2's header fields in every form: dotted and other versions and builds, starts in seconds, milliseconds and text",
        arguments: [
            ("3.1.1", "400", "2026-11-24T10:00:05Z"), ("1.0", "2026.11.24.1", "2026-11-24T10:00:05.123Z"),
            ("2.0-beta", "", "2023-12-31T23:59:59Z"), ("01", "0", "2026-11-24T10:00:05.1Z"), ("", "1.2.3.4.5.6.7.8", "yesterday"),
            ("18446744073709551615", "9999999999999999999", "9999-12-31T23:59:59.999Z"),
        ])
    func version2Fields(version: String, build: String, started: String) throws {
        // Given a trail whose version, build and start each take one of the forms
        let trail = Trail(
            app: .init(bundleID: TrailFixtures.harbor.app, version: version, build: build),
            session: .init(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: started, pid: 81_234),
            steps: [Step(t: 5, .push(Destination("settings")))])
        for codec in [TrailCodec(manifests: [TrailFixtures.harbor]), TrailCodec()] {
            // When encoded, Then both decoders read it back
            let binary = try codec.encodeBinary(trail)
            #expect(try Self.independentDecode(binary, manifests: [TrailFixtures.harbor]) == trail)
            #expect(try codec.decodeBinary(binary) == trail)
        }
    }

    @Test("Long trails whose raw column deflates keep it inside the stream, and both decoders read that")
    func rawColumnInsideTheStream() throws {
        // Given 2,000 steps one second apart: their time low bytes repeat, so deflating the raw column pays
        let steps = (0..<2_000).map { Step(t: Int64($0) * 1_000, $0 % 2 == 0 ? .push(Destination("settings")) : .pop) }
        let trail = Trail(
            app: .init(bundleID: TrailFixtures.harbor.app, version: "1", build: "1"),
            session: .init(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-24T10:00:05Z", pid: 7), steps: steps)
        let codec = TrailCodec(manifests: [TrailFixtures.harbor])
        let binary = try codec.encodeBinary(trail)
        // Then the whole trail is far smaller than its 2,000 raw low bytes, and decodes exactly with both decoders
        #expect(binary.count < 200)
        #expect(try Self.independentDecode(binary, manifests: [TrailFixtures.harbor]) == trail)
        #expect(try codec.decodeBinary(binary) == trail)
        // A byte after such a stream is refused.
        #expect(throws: TrailCodecError.self) { try codec.decodeBinary(binary + [0]) }
    }

    @Test("The sample trails and the fuzz corpus's binary trails read the same with both decoders")
    func samplesAndCorpus() throws {
        let codec = TrailCodec(manifests: Self.manifests)
        var files: [URL] = []
        for folder in ["Samples/trails", "Tools/Fuzz/Corpus/fuzz-trail-binary"] {
            let url = TrailFixtures.packageRoot.appendingPathComponent(folder)
            files += (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted().map { url.appendingPathComponent($0) } ?? []
        }
        var checked = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            guard let expected = try? codec.decode(bytes) else { continue }
            // Text and key forms are re-encoded to binary so that every trail is read from a binary body.
            let binary = bytes.first == 0xC7 ? bytes : try codec.encodeBinary(expected)
            #expect(try Self.independentDecode(binary, manifests: Self.manifests) == expected, "\(file.lastPathComponent)")
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test("Mutated bodies: whatever the production decoder accepts, the document's decoder reads the same")
    func mutatedBodies() throws {
        // Given real bodies (with and without a manifest), mutated by a flip, a new byte, a cut or an insertion
        let codec = TrailCodec(manifests: Self.manifests)
        var samples: [(body: TrailBodyEncoder.Body, dictionary: ManifestDictionary?)] = []
        for seed in 0..<30 {
            let trail = TrailFixtures.randomTrail(manifest: Self.manifests[seed % 2], seed: UInt64(9_100 + seed), maximumSteps: 60)
            let dictionary = seed % 3 == 0 ? nil : codec.dictionary(for: trail)
            var encoder = TrailBodyEncoder(dictionary: dictionary)
            samples.append((encoder.encode(trail), dictionary))
        }
        var random = SplitMix64(seed: 0x1D0C)
        var accepted = 0
        var mutatedAndAccepted = 0
        for _ in 0..<4_000 {
            let sample = samples[Int.random(in: 0..<samples.count, using: &random)]
            var body = sample.body
            BodyMutation.mutate(&body, using: &random)
            // When both decoders read it
            var production = TrailBodyDecoder(structure: body.structure, raw: body.raw, dictionary: sample.dictionary)
            let produced = try? production.decode().trail
            var independent = IndependentTrailDecoder(manifest: sample.dictionary?.manifest)
            let read = try? independent.decode(structure: body.structure, raw: body.raw)
            // Then a body the production decoder accepts is the same trail by the document
            if let produced {
                accepted += 1
                #expect(read == produced, "a mutated body the production decoder accepted reads otherwise by the document")
                if body.structure != sample.body.structure || body.raw != sample.body.raw { mutatedAndAccepted += 1 }
            }
        }
        // Some mutations must be accepted (changed values), or the comparison proves little.
        #expect(mutatedAndAccepted > 50, "only \(mutatedAndAccepted) of \(accepted) accepted bodies were mutated")
    }
}
