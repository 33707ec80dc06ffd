import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// The canonical writer's integers and strings, against plain reference implementations.
@Suite("Canonical JSON scalars")
struct CanonicalJSONTests {
    private func written(_ value: JSONValue) -> String {
        CanonicalJSON.string(of: value)
    }

    @Test func integersAreWrittenAsSwiftPrintsThem() {
        var random = SplitMix64(seed: 0xC0FFEE)
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, -1, -9, -10, Int64.max, Int64.min, Int64.min + 1, 1 << 53]
        for _ in 0..<2_000 {
            let raw = Int64(bitPattern: random.next())
            values.append(raw >> Int64(random.next() % 63))
        }
        for value in values {
            #expect(written(.int(value)) == String(value))
        }
    }

    /// The escapes SPEC section 5 allows: `"`, `\` and control characters; everything else as is.
    private func reference(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}": out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func stringsEscapeOnlyQuotesBackslashesAndControls() {
        let fixed = [
            "", "plain", "\"", "\\", "a\"b\\c", "\u{0}\u{1}\u{1F}", "tab\there\nnew\rline\u{08}\u{0C}",
            "é/ü 日本 🏴‍☠️", "\u{7F}\u{80}", "end\\", "\"start", String(repeating: "x", count: 300) + "\n",
        ]
        var random = SplitMix64(seed: 0x57A1)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "\"", "\\", "\n", "\u{0}", "\u{1B}", "é", "🏴", "/", " ", "\u{7F}"]
        let generated = (0..<500).map { _ in
            String(
                String.UnicodeScalarView((0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        for string in fixed + generated {
            #expect(written(.string(string)) == reference(string), "\(string.debugDescription)")
        }
    }

    @Test func objectKeysAreInCodePointOrderWhateverTheirCount() {
        #expect(written(.object([:])) == "{}")
        #expect(written(.object(["only": .int(1)])) == #"{"only":1}"#)
        #expect(
            written(.object(["b": .null, "a": .bool(true), "é": .string("x"), "Z": .array([])])) == #"{"Z":[],"a":true,"b":null,"é":"x"}"#)
    }
}
