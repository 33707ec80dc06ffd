import CrashtrailCore
import Testing

@testable import CrashtrailEncoding

@Suite("Split keys refuse missing, repeated, reordered and foreign parts")
struct SplitKeysTests {
    let codec = TrailCodec(manifests: [TrailFixtures.pirateBay])
    let trail = TrailFixtures.hundredStepTrail()

    private func parts(limit: Int = 80) throws -> [String: String] {
        try codec.encodeKeys(trail, limit: limit)
    }

    private func code(_ keys: [String: String]) -> TrailCodecError.Code? {
        do {
            _ = try codec.decode(keys: keys)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("every part is within the limit and the parts reassemble", arguments: [32, 80, 1_024])
    func limits(limit: Int) throws {
        let keys = try parts(limit: limit)
        #expect(keys.values.allSatisfy { $0.count <= limit })
        #expect(Set(keys.keys) == Set((0..<keys.count).map { "crashtrail.\($0)" }))
        #expect(try codec.decode(keys: keys).canonicalJSON == trail.canonicalJSON)
        // The JSON object form is the canonical JSON of the same parts.
        let json = try codec.encode(trail, as: .keys(limit: limit))
        #expect(json == CanonicalJSON.bytes(of: .object(keys.mapValues { .string($0) })))
        #expect(try codec.decode(json).canonicalJSON == trail.canonicalJSON)
    }

    @Test("a key limit too small for a part")
    func tooSmall() {
        do {
            _ = try codec.encodeKeys(trail, limit: 10)
            Issue.record("a 10-character limit was accepted")
        } catch {
            #expect(error.code == .keyLimitTooSmall)
        }
    }

    @Test("a missing part")
    func missing() throws {
        var keys = try parts()
        keys["crashtrail.2"] = nil
        #expect(code(keys) == .missingPart)
        var noFirst = try parts()
        noFirst["crashtrail.0"] = nil
        #expect(code(noFirst) == .missingPart)
        var last = try parts()
        last["crashtrail.\(last.count - 1)"] = nil
        #expect(code(last) == .missingPart)
    }

    @Test("a repeated part")
    func repeated() throws {
        var keys = try parts()
        keys["crashtrail.2"] = keys["crashtrail.1"]
        #expect(code(keys) == .repeatedPart)
        var extra = try parts()
        extra["crashtrail.\(extra.count)"] = extra["crashtrail.0"]
        #expect(code(extra) == .repeatedPart)
    }

    @Test("reordered parts")
    func reordered() throws {
        var keys = try parts()
        let one = keys["crashtrail.1"]
        keys["crashtrail.1"] = keys["crashtrail.2"]
        keys["crashtrail.2"] = one
        #expect(code(keys) == .reorderedPart)
    }

    @Test("a part of another trail")
    func foreign() throws {
        var keys = try parts()
        var other = trail
        other.steps.removeLast()
        let otherKeys = try codec.encodeKeys(other, limit: 80)
        keys["crashtrail.1"] = otherKeys["crashtrail.1"]
        #expect(code(keys) == .foreignPart)
        // A part whose data was altered but whose header was kept.
        var altered = try parts()
        if let value = altered["crashtrail.1"] {
            let flipped = value.last == "A" ? "B" : "A"
            altered["crashtrail.1"] = String(value.dropLast()) + flipped
        }
        #expect(code(altered) == .foreignPart)
    }

    @Test(
        "values that are not parts",
        arguments: ["hello", "ct1.0.1:abc", "ct1.x.1.00000000:abc", "ct1.0.1.0000000g:abc", "ct1.1.1.00000000:abc"])
    func invalid(value: String) {
        #expect(code(["crashtrail.0": value]) == .invalidPart)
    }

    @Test("a bad key name and no parts at all")
    func keys() throws {
        var keys = try parts()
        keys["crashtrail.01"] = keys["crashtrail.0"]
        #expect(code(keys) == .invalidPart)
        #expect(code(["other": "x"]) == .missingPart)
    }
}
