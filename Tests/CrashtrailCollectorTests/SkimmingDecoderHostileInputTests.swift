import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Broken and hostile JSON: `SkimmingDecoder` never crashes or hangs, and refuses whatever `JSONDecoder` refuses.
///
/// Where it is deliberately stricter (see `SkimmingDecoder`: number grammar, raw control
/// characters and invalid escapes in strings nobody reads, trailing commas), the refusal says so.
///
/// The time limit catches a hang, not slowness: alone the suite takes about 7 seconds, but in the whole run on two
/// cores, beside the peers' servers, its tests waited for the CPU past two minutes.
@Suite("SkimmingDecoder on hostile input", .timeLimit(.minutes(6)))
struct SkimmingDecoderHostileInputTests {
    /// Reads nothing: only the syntax check decides.
    struct Nothing: Decodable, Equatable {
        init() {}
        init(from decoder: any Decoder) throws {}
    }

    /// Reads everything, so every string and number is converted, as a generic JSON reader does.
    enum Everything: Decodable, Equatable {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
        case array([Everything])
        case object([String: Everything])

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Key.self) {
                var object: [String: Everything] = [:]
                for key in container.allKeys { object[key.stringValue] = try container.decode(Everything.self, forKey: key) }
                self = .object(object)
            } else if var container = try? decoder.unkeyedContainer() {
                var array: [Everything] = []
                while !container.isAtEnd { array.append(try container.decode(Everything.self)) }
                self = .array(array)
            } else {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    self = .null
                } else if let bool = try? container.decode(Bool.self) {
                    self = .bool(bool)
                } else if let int = try? container.decode(Int64.self) {
                    self = .int(int)
                } else if let double = try? container.decode(Double.self) {
                    self = .double(double)
                } else {
                    self = .string(try container.decode(String.self))
                }
            }
        }
    }

    /// The phrases of the refusals that Foundation would not make (it does not check what it does not read).
    static let stricterThanFoundation = [
        "leading zero", "expected a digit", "malformed number", "raw control character", "invalid escape", "hex digits",
        "trailing comma",
    ]

    /// Whether `error` is the syntax refusal: `dataCorrupted` with an empty coding path.
    static func isSyntaxRefusal(_ error: EngineComparison.ErrorSummary?) -> Bool {
        error?.kind == "dataCorrupted" && error?.path == ""
    }

    static func skimmingMessage(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            do {
                _ = try SkimmingDecoder().decode(Nothing.self, from: buffer)
                return ""
            } catch {
                return "\(error)"
            }
        }
    }

    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestFiles.samples.appendingPathComponent("reports").appendingPathComponent(name)))
    }

    /// Checks one input against Foundation: a syntax refusal there is one here; a refusal only here is one of
    /// the documented stricter rules; and when both read everything, they read the same.
    static func expectNoLooserThanFoundation(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let mine = EngineComparison.skimming(Nothing.self, bytes)
        let reference = EngineComparison.foundation(Nothing.self, bytes)
        if isSyntaxRefusal(reference.error) {
            #expect(
                isSyntaxRefusal(mine.error), "\(label): JSONDecoder refuses the syntax, SkimmingDecoder gave \(mine)",
                sourceLocation: sourceLocation)
        } else if mine.error != nil {
            let message = skimmingMessage(bytes)
            #expect(
                stricterThanFoundation.contains { message.contains($0) }, "\(label): refused only by SkimmingDecoder: \(message)",
                sourceLocation: sourceLocation)
        }
        let myValue = EngineComparison.skimming(Everything.self, bytes)
        let referenceValue = EngineComparison.foundation(Everything.self, bytes)
        switch (myValue, referenceValue) {
        case (.value(let mine), .value(let theirs)):
            #expect(mine == theirs, "\(label)", sourceLocation: sourceLocation)
        case (.value, .error(let error)):
            Issue.record("\(label): JSONDecoder refuses it (\(error)), SkimmingDecoder reads it", sourceLocation: sourceLocation)
        case (.error, .value):
            // Foundation reads everything but a trailing comma; this decoder refuses it.
            #expect(
                skimmingMessage(bytes).contains("trailing comma"), "\(label): \(skimmingMessage(bytes))", sourceLocation: sourceLocation)
        case (.error, .error):
            break
        }
    }

    // MARK: - Truncation and corruption

    @Test(
        "Cut at every byte: refused as truncated, naming where the text ends",
        arguments: ["crashtrail-ct1-text.json", "crashtrail-trail-object.json"])
    func truncation(_ name: String) throws {
        let bytes = try Self.sample(name)
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: "}"))) + 1
        for length in 0..<end {
            let prefix = Array(bytes[0..<length])
            let mine = EngineComparison.skimming(Nothing.self, prefix)
            #expect(Self.isSyntaxRefusal(mine.error), "cut at \(length): \(mine)")
            let message = Self.skimmingMessage(prefix)
            #expect(message.contains(length == 0 ? "empty" : "byte \(length): the text ends"), "cut at \(length): \(message)")
            Self.expectNoLooserThanFoundation(prefix, "cut at \(length)")
            // The parser refuses it as invalid JSON, as it did with JSONDecoder.
            let (outcome, reference) = EngineComparison.both(prefix, as: .crashtrail)
            #expect(outcome.code == .invalidJSON && reference.code == .invalidJSON, "cut at \(length): \(outcome) / \(reference)")
        }
        #expect(EngineComparison.skimming(Nothing.self, bytes) == .value(Nothing()))
    }

    @Test("Cut at every byte of an .ips body and an envelope: the parsers refuse it as JSONDecoder made them refuse it")
    func truncationThroughParsers() throws {
        for (name, format) in [
            ("ips-joined-by-pid.ips", ReportFormat.ips), ("sentry-envelope-binary-attachment.envelope", .sentryEnvelope),
        ] {
            let bytes = try Self.sample(name)
            for length in stride(from: 0, to: bytes.count, by: 3) {
                let prefix = Array(bytes[0..<length])
                let (mine, reference) = EngineComparison.both(prefix, as: format)
                #expect(mine.code == reference.code, "\(name) cut at \(length): \(mine) / \(reference)")
                if reference.code == nil { #expect(mine.matches(reference), "\(name) cut at \(length)") }
            }
        }
    }

    @Test("Random byte changes (seeded): never a crash, never looser than JSONDecoder")
    func byteFlips() throws {
        var random = SplitMix64(seed: 0xF11F)
        let sources = [
            try Self.sample("crashtrail-ct1-text.json"), try Self.sample("sentry-event-no-trail.json"),
            Array(#"{"a":[1,-2.5e3,0,true,false,null,"x\"y\\z\u00e9\ud83d\ude00"],"b":{"c":{}},"d":[],"e":"é日本"}"#.utf8),
        ]
        var refusedOnlyHere = 0
        for (sourceIndex, source) in sources.enumerated() {
            for round in 0..<400 {
                var bytes = source
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let replacement: UInt8 =
                        Bool.random(using: &random)
                        ? UInt8.random(in: 0...255, using: &random)
                        : Array(#"{}[],:"\0123456789.eE+-tfnu "#.utf8).randomElement(using: &random) ?? 0
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = replacement
                }
                Self.expectNoLooserThanFoundation(bytes, "source \(sourceIndex) round \(round)")
                if EngineComparison.skimming(Nothing.self, bytes).error != nil,
                    EngineComparison.foundation(Nothing.self, bytes).error == nil
                {
                    refusedOnlyHere += 1
                }
            }
        }
        // The stricter rules did come up, and were checked above.
        #expect(refusedOnlyHere > 0)
    }

    // MARK: - Nesting

    @Test("Nesting: 512 levels are read, 513 refused (as JSONDecoder), and 100,000 refused without recursion")
    func nesting() {
        for depth in [511, 512, 513] {
            for json in [
                String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
                "{\"b\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}",
            ] {
                let mine = EngineComparison.skimming(Nothing.self, Array(json.utf8))
                let reference = EngineComparison.foundation(Nothing.self, Array(json.utf8))
                #expect((mine.error == nil) == (depth <= 512), "depth \(depth): \(mine)")
                #expect((reference.error == nil) == (depth <= 512), "depth \(depth): JSONDecoder \(reference)")
            }
        }
        let deep = Array((String(repeating: #"{"a":["#, count: 50_000) + "1" + String(repeating: "]}", count: 50_000)).utf8)
        #expect(Self.skimmingMessage(deep).contains("nested deeper than 512"))
        let unclosed = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(Self.skimmingMessage(unclosed).contains("nested deeper than 512"))
    }

    // MARK: - Strings

    @Test(
        "Invalid escapes are refused everywhere, named",
        arguments: [#"\x"#, #"\u12"#, #"\uZZZZ"#, #"\u12G4"#, #"\a"#, #"\'"#, #"\U0041"#, #"\ "#])
    func badEscapes(_ escape: String) {
        for json in [#"{"unread":"a\#(escape)b"}"#, #"{"a":"\#(escape)"}"#, #"["\#(escape)"]"#] {
            let message = Self.skimmingMessage(Array(json.utf8))
            #expect(message.contains("escape") || message.contains("hex digits") || message.contains("text ends"), "\(json): \(message)")
            Self.expectNoLooserThanFoundation(Array(json.utf8), json)
        }
    }

    struct Text: Decodable, Equatable { var a: String }
    struct OptionalText: Decodable, Equatable { var a: String? }
    struct LenientText: Decodable, Equatable {
        var a: Lenient<String>?
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.a?.value == rhs.a?.value }
    }

    @Test(
        "Lone and misordered surrogate escapes: ignored unread, refused as invalid JSON when read, dropped by Lenient",
        arguments: [#"\ud800"#, #"\udc00"#, #"\udc00\ud800"#, #"\ud800\u0041"#, #"\ud800x"#, #"\ud83d"#])
    func loneSurrogates(_ escape: String) {
        let unread = Array(#"{"b":"x\#(escape)y","a":"ok"}"#.utf8)
        #expect(EngineComparison.skimming(Text.self, unread) == .value(Text(a: "ok")))
        EngineComparison.expectSame(Text.self, #"{"b":"x\#(escape)y","a":"ok"}"#)
        let read = #"{"a":"x\#(escape)y"}"#
        #expect(Self.isSyntaxRefusal(EngineComparison.skimming(Text.self, Array(read.utf8)).error))
        EngineComparison.expectSame(Text.self, read)
        EngineComparison.expectSame(OptionalText.self, read)
        EngineComparison.expectSame(LenientText.self, read)
        #expect(EngineComparison.skimming(LenientText.self, Array(read.utf8)) == .value(LenientText(a: nil)))
    }

    @Test("A text that ends inside an escape is refused as truncated")
    func truncatedEscape() {
        for json in [#"{"a":"x\"#, #"{"a":"x\u"#, #"{"a":"x\u00"#, #"{"a":"x\u00e9"#] {
            #expect(Self.skimmingMessage(Array(json.utf8)).contains("the text ends"), "\(json)")
            Self.expectNoLooserThanFoundation(Array(json.utf8), json)
        }
    }

    @Test("Escapes and surrogate pairs decode as JSONDecoder decodes them")
    func escapes() {
        for text in [#"a\"b\\c\/d\be\ff\ng\rh\ti"#, #"\u0000\u001f\u007f\u00e9\u65e5\ud83d\ude00"#, "é日本😀", "", #"\\u0041"#] {
            EngineComparison.expectSame(Text.self, #"{"a":"\#(text)"}"#)
        }
        #expect(EngineComparison.skimming(Text.self, Array(#"{"a":"\ud83d\ude00\u00e9"}"#.utf8)) == .value(Text(a: "😀é")))
    }

    @Test("Invalid UTF-8: ignored unread, refused as invalid JSON when read or in a key of an object read")
    func invalidUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3, 0x28], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let unread = Array(#"{"b":""#.utf8) + bad + Array(#"","a":"ok"}"#.utf8)
            #expect(EngineComparison.skimming(Text.self, unread) == .value(Text(a: "ok")))
            #expect(EngineComparison.foundation(Text.self, unread) == .value(Text(a: "ok")))
            let read = Array(#"{"a":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(Self.isSyntaxRefusal(EngineComparison.skimming(Text.self, read).error))
            #expect(Self.isSyntaxRefusal(EngineComparison.foundation(Text.self, read).error))
            let key = Array(#"{"a":"ok",""#.utf8) + bad + Array(#"":1}"#.utf8)
            #expect(Self.isSyntaxRefusal(EngineComparison.skimming(Text.self, key).error))
            #expect(Self.isSyntaxRefusal(EngineComparison.foundation(Text.self, key).error))
            let unreadKey = Array(#"{"a":"ok","b":{""#.utf8) + bad + Array(#"":1}}"#.utf8)
            #expect(EngineComparison.skimming(Text.self, unreadKey) == .value(Text(a: "ok")))
        }
    }

    @Test(
        "Raw control characters: refused everywhere (JSONDecoder refuses them only where it reads)",
        arguments: [0x00, 0x01, 0x09, 0x0A, 0x1F])
    func controlCharacters(_ byte: Int) {
        let unread = Array(#"{"b":"x"#.utf8) + [UInt8(byte)] + Array(#"y","a":"ok"}"#.utf8)
        #expect(Self.skimmingMessage(unread).contains("raw control character"))
        #expect(EngineComparison.foundation(Text.self, unread) == .value(Text(a: "ok")))
        let read = Array(#"{"a":"x"#.utf8) + [UInt8(byte)] + Array(#"y"}"#.utf8)
        #expect(Self.isSyntaxRefusal(EngineComparison.skimming(Text.self, read).error))
        #expect(Self.isSyntaxRefusal(EngineComparison.foundation(Text.self, read).error))
        // DEL (0x7F) is not a control character for JSON.
        EngineComparison.expectSame(Text.self, "{\"a\":\"x\u{7F}y\"}")
    }

    // MARK: - Numbers and literals

    @Test("Malformed numbers, literals and structure are refused, naming the byte offset")
    func malformedSyntax() {
        let cases: [(String, String)] = [
            (#"{"b":01}"#, "leading zero"), (#"{"b":-}"#, "expected a digit"), (#"{"b":1.}"#, "expected a digit after the decimal point"),
            (#"{"b":.5}"#, "expected a value"), (#"{"b":+1}"#, "expected a value"), (#"{"b":1e}"#, "expected a digit after the exponent"),
            (#"{"b":1e+}"#, "expected a digit"), (#"{"b":NaN}"#, "expected a value"), (#"{"b":Infinity}"#, "expected a value"),
            (#"{"b":tru}"#, "invalid literal"), (#"{"b":nul}"#, "invalid literal"), (#"{"b":[1,]}"#, "trailing comma"),
            (#"{"b":1,}"#, "trailing comma"), (#"{"b" 1}"#, "expected ':'"), (#"{b:1}"#, "expected a key"),
            (#"{"b":1}}"#, "end of the text"),
            (#"{"b":1} x"#, "end of the text"), (#"{"b":[1 2]}"#, "expected ',' or ']'"), (#"{"b":[1-2]}"#, "malformed number"),
            (#"{"b":1 "c":2}"#, "expected ',' or '}'"),
            ("", "empty"), ("   ", "the text ends"), ("{\"b\":1}\u{0}", "end of the text"), (#"{"b":"x"/*c*/}"#, "expected ',' or '}'"),
            (#"{"b":1}"# + "\n\n" + #"{"c":2}"#, "line 3, byte 9"),
        ]
        for (json, phrase) in cases {
            let message = Self.skimmingMessage(Array(json.utf8))
            #expect(message.contains(phrase) && message.contains("byte"), "\(json): \(message)")
            Self.expectNoLooserThanFoundation(Array(json.utf8), json)
        }
        // A byte order mark and surrounding whitespace are fine, as in Foundation.
        EngineComparison.expectSame(Text.self, "\u{FEFF} \t\r\n{\"a\" : \"x\" }\r\n")
    }

    struct Numbers: Decodable, Equatable {
        var int: Int?
        var int64: Int64?
        var int8: Int8?
        var uint8: UInt8?
        var uint64: UInt64?
        var double: Double?
        var float: Float?
    }

    @Test(
        "Huge, tiny and odd numbers read as every type exactly as JSONDecoder reads them",
        arguments: [
            "0", "-0", "-0.0", "1", "-1", "1.0", "1.5", "-0.5", "1e2", "1E2", "1e-2", "0.1e1", "10e-1", "2.5e+3", "127", "128", "-128",
            "-129", "255", "256", "9007199254740993", "9007199254740993.0", "9007199254740993.5", "9223372036854775807",
            "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "9223372036854775807.0", "18446744073709551615",
            "18446744073709551616", "1e19", "1e20", "1e400", "-1e400", "1e-400", "0e-400", "4.9e-324", "2e-324", "3.4e38", "3.5e38",
            "1e39", "123456789012345678901234567890", String(repeating: "9", count: 400), "1" + String(repeating: "0", count: 400) + ".0",
            "1e999999999999999999999", "1.0000000000000001",
        ])
    func numbers(_ number: String) {
        for field in ["int", "int64", "int8", "uint8", "uint64", "double", "float"] {
            EngineComparison.expectSame(Numbers.self, #"{"\#(field)":\#(number)}"#)
        }
        // Unread, any valid number is fine.
        #expect(EngineComparison.skimming(Numbers.self, Array(#"{"other":\#(number)}"#.utf8)) == .value(Numbers()))
    }

    @Test("LooseScalar reads every kind of value as it did with JSONDecoder")
    func looseScalars() {
        struct Loose: Decodable, Equatable {
            var value: LooseScalar?
            static func == (lhs: Self, rhs: Self) -> Bool {
                lhs.value?.string == rhs.value?.string && lhs.value?.int == rhs.value?.int
                    && lhs.value?.double?.bitPattern == rhs.value?.double?.bitPattern
            }
        }
        for value in [
            "1", "-0", "1.0", "1.5", "1e2", "1e400", "1e-400", "9223372036854775808", "\"12\"", "\"1.5\"", "\"x\"", "\"\"", "true",
            "false", "null", "{}", "[]", "[1]", #"{"a":1}"#, #""\ud800""#, "1730000000.125", "\"0x1F\"",
        ] {
            EngineComparison.expectSame(Loose.self, #"{"value":\#(value)}"#)
        }
    }
}
