import CrashtrailCore
import CrashtrailTestSupport
import Testing

@testable import CrashtrailEncoding

@Suite("Hostile input is refused with its own error")
struct HostileInputTests {
    let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
    let trail = TrailFixtures.hundredStepTrail()

    private func code(_ body: () throws(TrailCodecError) -> Trail) -> TrailCodecError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    /// A binary trail with the given header fields and a body deflated from `body`.
    private func craft(body: [UInt8], declared: Int? = nil, dictionary: UInt32? = nil, checksum: UInt32 = 0) throws -> [UInt8] {
        var out = ByteWriter()
        TrailHeader(dictionaryID: dictionary, bodyLength: declared ?? body.count, checksum: checksum).write(into: &out)
        out.append(try RawDeflate.deflate(body, dictionary: []))
        return out.bytes
    }

    @Test("wrong magic")
    func wrongMagic() throws {
        var binary = try codec.encode(trail, as: .binary)
        binary[1] ^= 0xFF
        #expect(code { () throws(TrailCodecError) in try codec.decodeBinary(binary) } == .wrongMagic)
        #expect(code { () throws(TrailCodecError) in try codec.decode([0x00, 0x01, 0x02] as [UInt8]) } == .wrongMagic)
    }

    @Test("an unknown format version is named")
    func unknownVersion() throws {
        var binary = try codec.encode(trail, as: .binary)
        binary[2] = 7
        do {
            _ = try codec.decode(binary)
            Issue.record("version 7 was accepted")
        } catch {
            #expect(error.code == .unsupportedVersion)
            #expect(error.message.contains("version 7"))
        }
        #expect(code { () throws(TrailCodecError) in try codec.decode(text: "ct2:AAAA") } == .unsupportedVersion)
    }

    @Test("unknown header flags in a format version 1 trail")
    func unknownFlags() throws {
        // Version 2 has no flags byte (its dictionary flag is the length's lowest bit); version 1's is still checked.
        var binary = try codec.encodeBinary(trail, formatVersion: 1)
        #expect(binary[2] == 1)
        binary[3] |= 0x80
        #expect(code { () throws(TrailCodecError) in try codec.decode(binary) } == .invalidHeader)
    }

    @Test("format version 1 trails, as older builds wrote them, are truncated, flipped and cut like version 2")
    func version1Hostile() throws {
        let binary = try codec.encodeBinary(trail, formatVersion: 1)
        for length in 0..<binary.count {
            let cut = Array(binary.prefix(length))
            #expect(code { () throws(TrailCodecError) in try codec.decodeBinary(cut) } == .truncated, "cut at \(length)")
        }
        // Version 1's deflate stream ends the data: a byte after it is refused.
        #expect(code { () throws(TrailCodecError) in try codec.decode(binary + [0]) } == .corruptBody)
        #expect(try codec.decode(binary).canonicalJSON == trail.canonicalJSON)
    }

    @Test("a bad checksum")
    func badChecksum() throws {
        var binary = try codec.encode(trail, as: .binary)
        // The checksum is the last four header bytes, just before the deflate stream.
        let (_, bodyStart) = try TrailHeader.read(binary)
        binary[bodyStart - 1] ^= 0x01
        #expect(code { () throws(TrailCodecError) in try codec.decode(binary) } == .badChecksum)
    }

    @Test("truncation at every byte of an encoded trail")
    func truncationEverywhere() throws {
        for sample in [trail, TrailFixtures.randomTrail(manifest: TrailFixtures.pirateBay, seed: 9)] {
            let binary = try codec.encode(sample, as: .binary)
            for length in 0..<binary.count {
                let cut = Array(binary.prefix(length))
                #expect(
                    code { () throws(TrailCodecError) in try codec.decodeBinary(cut) } == .truncated, "cut at \(length) of \(binary.count)")
            }
        }
    }

    @Test("truncated text is refused")
    func truncatedText() throws {
        let text = try codec.encodeText(trail)
        for length in TextForm.prefix.count..<text.count {
            let result = code { () throws(TrailCodecError) in try codec.decode(text: String(text.prefix(length))) }
            #expect(result == .truncated || result == .invalidText, "cut at \(length): \(String(describing: result))")
        }
    }

    @Test("thousands of random bit flips never crash and never decode to another trail")
    func bitFlips() throws {
        var random = SplitMix64(seed: 0xB17F11B5)
        let samples = try (0..<8).map { index in
            let sample = index == 0 ? trail : TrailFixtures.randomTrail(manifest: TrailFixtures.pirateBay, seed: UInt64(100 + index))
            return (sample.canonicalJSON, try codec.encode(sample, as: .binary))
        }
        var refused = 0
        for _ in 0..<4_000 {
            let (json, original) = samples[Int.random(in: 0..<samples.count, using: &random)]
            var flipped = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let bit = Int.random(in: 0..<(flipped.count * 8), using: &random)
                flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            }
            do {
                // A flip in the deflate stream's final padding bits changes nothing: then the trail is the same.
                #expect(try codec.decode(flipped).canonicalJSON == json)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 3_900)
    }

    @Test("a declared size over the cap is refused before inflating")
    func declaredOverCap() throws {
        let small = TrailCodec(limits: .init(maximumInflatedSize: 1_000))
        let binary = try craft(body: [1, 2, 3], declared: 1_001)
        #expect(code { () throws(TrailCodecError) in try small.decode(binary) } == .declaredSizeOverCap)
        let huge = try craft(body: [1, 2, 3], declared: Int(Int32.max))
        #expect(code { () throws(TrailCodecError) in try codec.decode(huge) } == .declaredSizeOverCap)
    }

    @Test("a small input that inflates past the cap (a deflate bomb) stops at the cap")
    func deflateBomb() throws {
        // 20 MiB of zeros deflate to about 20 KiB; the header lies that the body is small.
        let bomb = try craft(body: [UInt8](repeating: 0, count: 20 << 20), declared: 100)
        #expect(bomb.count < 40_000)
        #expect(code { () throws(TrailCodecError) in try codec.decode(bomb) } == .inflatedSizeOverCap)
        let small = TrailCodec(limits: .init(maximumInflatedSize: 4_096))
        let smallBomb = try craft(body: [UInt8](repeating: 7, count: 100_000), declared: 4_000)
        #expect(code { () throws(TrailCodecError) in try small.decode(smallBomb) } == .inflatedSizeOverCap)
    }

    @Test("an input over the cap is refused before reading it")
    func inputOverCap() throws {
        let small = TrailCodec(limits: .init(maximumInflatedSize: 1_000, maximumInputSize: 1_000))
        let binary = [UInt8](repeating: 0xC7, count: 1_001)
        #expect(code { () throws(TrailCodecError) in try small.decode(binary) } == .inputOverCap)
    }

    @Test("a missing dictionary says which manifest it needs")
    func missingDictionary() throws {
        let binary = try codec.encode(trail, as: .binary)
        let id = ManifestDictionary(manifest: TrailFixtures.pirateBay).idString
        for decoder in [TrailCodec(), TrailCodec(manifests: [TrailFixtures.harbor])] {
            do {
                _ = try decoder.decode(binary)
                Issue.record("decoded without the dictionary")
            } catch {
                #expect(error.code == .missingDictionary)
                #expect(error.message.contains(id))
            }
        }
        // Given several manifests, the decoder picks the one the header names.
        let several = TrailCodec(manifests: [TrailFixtures.harbor, TrailFixtures.pirateBay])
        #expect(try several.decode(binary).canonicalJSON == trail.canonicalJSON)
    }

    @Test("corrupt deflate data and bodies an encoder never writes")
    func corruptBody() throws {
        // Deflate block type 3 does not exist.
        var out = ByteWriter()
        TrailHeader(dictionaryID: nil, bodyLength: 10, checksum: 0).write(into: &out)
        out.append([0xFF, 0xFF, 0xFF])
        #expect(code { () throws(TrailCodecError) in try codec.decode(out.bytes) } == .corruptBody)
        // A body whose op byte no encoder writes, and one with bytes after its end.
        for body: [UInt8] in [[0x00, 0, 0, 0, 0, 0, 0, 0, 1, 0xFF, 0], [0x00, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9]] {
            let crafted = try craft(body: body)
            #expect(code { () throws(TrailCodecError) in try codec.decode(crafted) } == .corruptBody)
        }
        // Bytes after the raw column that follows the deflate stream.
        let binary = try codec.encode(trail, as: .binary) + [0x00]
        #expect(code { () throws(TrailCodecError) in try codec.decode(binary) } == .corruptBody)
    }

    @Test("invalid base64url in ct1: text", arguments: ["ct1:ab=c", "ct1:a", "ct1:ab+c", "ct1:abc!", "ct1:ab c", "ct1:AB"])
    func invalidBase64(text: String) {
        #expect(code { () throws(TrailCodecError) in try codec.decode(text: text) } == .invalidText)
    }

    @Test("input in no known form")
    func unrecognized() {
        #expect(code { () throws(TrailCodecError) in try codec.decode(Array("hello".utf8)) } == .unrecognizedForm)
        #expect(code { () throws(TrailCodecError) in try codec.decode([UInt8]()) } == .unrecognizedForm)
        #expect(code { () throws(TrailCodecError) in try codec.decode(Array("   ".utf8)) } == .unrecognizedForm)
        #expect(code { () throws(TrailCodecError) in try codec.decode(Array("{\"version\":1}".utf8)) } == .invalidTrail)
        #expect(code { () throws(TrailCodecError) in try codec.decode(Array("{\"a\":".utf8)) } == .invalidTrail)
    }

    @Test("random bytes are refused, each with a reason that fits what they look like")
    func randomBytes() {
        // A binary header (magic, a version, no flags) is refused by its length, its body or its checksum; bytes in no
        // form are refused as such. Text starting with `ct1:` or `{` cannot come from 64 random bytes often enough to
        // matter, but is allowed its own codes.
        let binaryCodes: Set<TrailCodecError.Code> = [
            .truncated, .invalidHeader, .corruptBody, .badChecksum, .declaredSizeOverCap, .inflatedSizeOverCap,
        ]
        let otherCodes: Set<TrailCodecError.Code> = [
            .unrecognizedForm, .invalidText, .invalidTrail, .wrongMagic, .unsupportedVersion, .invalidHeader, .truncated,
        ]
        var random = SplitMix64(seed: 77)
        var seen: [String: Int] = [:]
        for index in 0..<2_000 {
            var bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let binary = Bool.random(using: &random)
            // Half of the binary inputs have version 1's header (version, no flags), half version 2's (version, and
            // the length's lowest bit, its dictionary flag, cleared).
            if binary {
                if Bool.random(using: &random) {
                    bytes = TrailHeader.magic + [1, 0] + bytes
                } else {
                    if !bytes.isEmpty { bytes[0] &= 0xFE }
                    bytes = TrailHeader.magic + [2] + bytes
                }
            }
            do {
                let trail = try codec.decode(bytes)
                Issue.record("random input \(index) decoded to a trail of \(trail.steps.count) steps")
            } catch {
                #expect((binary ? binaryCodes : otherCodes).contains(error.code), "input \(index): \(error.code): \(error.message)")
                #expect(error.message.count > 10, "input \(index): the refusal must say why: \(error)")
                seen["\(binary ? "binary" : "other") \(error.code)", default: 0] += 1
            }
        }
        // Both kinds of input were tried, and the binary ones reached past the header.
        #expect(seen.keys.contains { $0.hasPrefix("binary") } && seen.keys.contains { $0.hasPrefix("other") }, "\(seen)")
        #expect(seen.keys.contains("other unrecognized-form"), "\(seen)")
    }
}

@Suite("Step bombs are refused before any step is built")
struct StepLimitTests {
    @Test("a few kilobytes of binary holding 200,001 steps, and JSON over the limit")
    func stepBomb() throws {
        // Given 200,001 alternating push/pop steps: about one body byte each, deflating about 1000:1
        let steps = (0...200_000).map { index in
            Step(t: Int64(index), index % 2 == 0 ? .push(Destination("item", ["id": "L-1"])) : .pop)
        }
        let trail = Trail(
            app: .init(bundleID: "com.example.bomb", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-02T14:45:05Z", pid: 1), steps: steps)
        let binary = try TrailCodec().encodeBinary(trail)
        #expect(binary.count < 10_000)
        // When decoded with the default limit, then refused naming the count
        do {
            _ = try TrailCodec().decode(binary)
            Issue.record("a step bomb was decoded")
        } catch {
            #expect(error.code == .tooManySteps)
            #expect(error.message.contains("200001 steps"))
        }
        // A raised limit decodes it exactly.
        let trusting = TrailCodec(limits: .init(maximumSteps: 300_000))
        #expect(try trusting.decode(binary).steps.count == 200_001)
        // Trail JSON over the limit is refused the same way.
        let small = TrailCodec(limits: .init(maximumSteps: 10))
        let json = TrailFixtures.hundredStepTrail().canonicalJSON
        do {
            _ = try small.decode(json)
            Issue.record("JSON over the step limit was decoded")
        } catch {
            #expect(error.code == .tooManySteps)
        }
    }
}
