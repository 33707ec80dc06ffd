import CrashtrailCore
import CrashtrailTestSupport
import Testing

@testable import CrashtrailEncoding

@Suite("Codec building blocks")
struct CodecPiecesTests {
    @Test("base64url round-trips every length and refuses padding")
    func base64() throws {
        var random = SplitMix64(seed: 3)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.encode(Array("foob".utf8)) == "Zm9vYg")
    }

    @Test("varints round-trip and overlong forms are refused")
    func varints() throws {
        for value: UInt64 in [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max] {
            var writer = ByteWriter()
            writer.varint(value)
            var reader = ByteReader(writer.bytes)
            #expect(try reader.varint("v") == value)
        }
        for value: Int64 in [0, -1, 1, Int64.min, Int64.max] {
            var writer = ByteWriter()
            writer.signed(value)
            var reader = ByteReader(writer.bytes)
            #expect(try reader.signed("v") == value)
        }
        var overlong = ByteReader([0x80, 0x00])
        #expect(throws: ByteReader.ReadError.self) { try overlong.varint("v") }
        var tooLong = ByteReader([UInt8](repeating: 0xFF, count: 10) + [0x01])
        #expect(throws: ByteReader.ReadError.self) { try tooLong.varint("v") }
    }

    @Test("digit runs pack and unpack exactly, leading zeros included")
    func digits() {
        for text in [
            "0", "9", "00", "65586", "007", "89370400440532013000", String(repeating: "9", count: 64), String(repeating: "0", count: 64),
        ] {
            let digits = Array(text.utf8)
            let packed = DecimalDigits.pack(digits[...])
            #expect(packed.count == DecimalDigits.width(ofDigits: digits.count))
            #expect(DecimalDigits.unpack(packed[...], count: digits.count) == digits)
        }
        // 20 digits take 9 bytes; a packed value with more digits than declared is refused.
        #expect(DecimalDigits.width(ofDigits: 20) == 9)
        #expect(DecimalDigits.unpack([0xFF][...], count: 2) == nil)
    }

    @Test("session UUIDs and start times take their compact form only when it prints back identically")
    func compactFields() {
        #expect(CompactFields.uuidBytes("4D1FE12F-9EEE-4537-8DF6-791B7586D554")?.upper == true)
        #expect(CompactFields.uuidBytes("4d1fe12f-9eee-4537-8df6-791b7586d554")?.upper == false)
        #expect(CompactFields.uuidBytes("4d1fE12F-9EEE-4537-8DF6-791B7586D554") == nil)
        for text in [
            "2026-11-02T14:45:05Z", "2020-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "0000-03-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "2024-02-29T12:00:00Z",
        ] {
            let seconds = CompactFields.seconds(ofTimestamp: text)
            #expect(seconds.flatMap(CompactFields.timestamp(ofSeconds:)) == text, "\(text)")
        }
        for text in [
            "2026-02-30T00:00:00Z", "2026-11-02T24:00:00Z", "2026-11-02T14:45:05.1Z", "2026-11-02 14:45:05Z", "+026-11-02T14:45:05Z",
        ] {
            #expect(CompactFields.seconds(ofTimestamp: text) == nil, "\(text)")
        }
        #expect(CompactFields.seconds(ofTimestamp: "2020-01-01T00:00:10Z") == 10)
    }

    @Test(
        "the compact start time reads what Timestamp reads, as the same instant, and refuses what it refuses",
        arguments: [
            "2026-11-02T14:45:05Z", "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2026-02-31T00:00:00Z", "1900-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-12-31T23:59:59Z", "2026-11-02T24:00:00Z", "2026-11-02T23:60:00Z",
            "2026-11-02T23:59:60Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-01-00T00:00:00Z", "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "2026-11-02t14:45:05z", "2026-11-02T14:45:05+00:00",
            "2026-11-02T14:45:05.5Z", "12345678901234567890",
        ])
    func compactStartAgreesWithTimestamp(_ text: String) {
        let read = Timestamp.milliseconds(parsing: text)
        let compact = CompactFields.seconds(ofTimestamp: text)
        if let compact {
            // Seconds since 2020-01-01T00:00:00Z, which is 1,577,836,800 s after 1970.
            #expect(read == (compact + 1_577_836_800) * 1_000, "\(text)")
        }
        if read == nil { #expect(compact == nil, "\(text): Timestamp refuses it") }
        // What Timestamp reads in the exact compact shape takes the compact form.
        if let read, Timestamp.rfc3339(milliseconds: read) == text { #expect(compact != nil, "\(text)") }
    }

    @Test("version 2's dotted versions and starts since 2024 take their compact form only when they print back identically")
    func version2CompactFields() {
        for (text, numbers) in [
            ("3.1.1", [3, 1, 1]), ("400", [400]), ("0", [0]), ("1.0.10", [1, 0, 10]), ("1.2.3.4.5.6.7", [1, 2, 3, 4, 5, 6, 7]),
        ]
            as [(String, [UInt64])]
        {
            #expect(CompactFields.dottedNumbers(text) == numbers, "\(text)")
            #expect(CompactFields.dottedText(numbers) == text)
        }
        #expect(CompactFields.dottedNumbers("9999999999999999999") == [9_999_999_999_999_999_999])
        for text in ["", "01", "1.02", "1..2", ".1", "1.", "1.2.3.4.5.6.7.8", "3.1b", "10000000000000000000", "+1", "١٢"] {
            #expect(CompactFields.dottedNumbers(text) == nil, "\(text)")
        }
        for (text, form) in [
            ("2024-01-01T00:00:00Z", CompactFields.StartedForm.seconds), ("2026-11-24T10:00:05Z", .seconds),
            ("2026-11-24T10:00:05.123Z", .milliseconds), ("2026-11-24T10:00:05.000Z", .milliseconds),
            ("9999-12-31T23:59:59.999Z", .milliseconds),
        ] {
            let compact = CompactFields.started(text)
            #expect(compact?.form == form, "\(text)")
            #expect(compact.flatMap { CompactFields.startedText($0.form, value: $0.value) } == text, "\(text)")
        }
        #expect(CompactFields.started("2024-01-01T00:00:10.5Z") == nil)
        #expect(CompactFields.started("2023-12-31T23:59:59Z") == nil, "before the epoch: a string")
        #expect(CompactFields.started("2023-12-31T23:59:59.999Z") == nil)
        #expect(CompactFields.started("2026-02-30T00:00:00.000Z") == nil)
        #expect(CompactFields.started("2026-11-24T10:00:05.12aZ") == nil)
        #expect(CompactFields.started("2024-01-01T00:00:10.250Z")?.value == 10_250)
        #expect(CompactFields.startedText(.seconds, value: 1 << 45) == nil, "past year 9999")
        #expect(CompactFields.startedText(.milliseconds, value: UInt64.max) == nil)
    }

    @Test("the dictionary id is deterministic and changes with the routes")
    func dictionaryID() throws {
        let first = ManifestDictionary(manifest: TrailFixtures.pirateBay)
        let again = ManifestDictionary(manifest: TrailFixtures.manifest("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
        #expect(first.id == again.id)
        #expect(first.idString.count == 8)
        #expect(first.id != ManifestDictionary(manifest: TrailFixtures.harbor).id)
        let changed = try Manifest(
            yaml: """
                app: com.example.piratebay
                root: home
                destinations:
                  home: { url: "piratebay://home" }
                """)
        #expect(ManifestDictionary(manifest: changed).id != first.id)
    }

    @Test("the manifest makes trails smaller, and the encoder picks it by bundle ID")
    func manifestPays() throws {
        let trail = TrailFixtures.hundredStepTrail()
        let with = try TrailCodec(manifests: [TrailFixtures.harbor, TrailFixtures.pirateBay]).encodeBinary(trail)
        let without = try TrailCodec().encodeBinary(trail)
        #expect(with.count < without.count)
        let inspection = try TrailCodec(manifests: [TrailFixtures.pirateBay]).inspect(with)
        #expect(inspection.dictionaryID == ManifestDictionary(manifest: TrailFixtures.pirateBay).idString)
        #expect(inspection.stepCount == 100)
        #expect(inspection.binarySize == with.count)
        #expect(inspection.jsonSize == trail.canonicalJSON.count)
        #expect(inspection.form == .binary)
    }

    @Test("a trail the format cannot hold is refused on encoding")
    func invalidTrail() {
        let trail = Trail(
            app: Trail.AppInfo(bundleID: "a", version: "1", build: "1"), session: Trail.Session(id: "s", started: "t", pid: 1),
            steps: [Step(t: 10, .pop), Step(t: 5, .pop)])
        #expect(throws: TrailCodecError.self) { try TrailCodec().encodeBinary(trail) }
    }
}
