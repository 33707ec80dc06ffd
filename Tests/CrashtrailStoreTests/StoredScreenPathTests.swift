import CrashtrailCore
import CrashtrailStore
import CrashtrailTestSupport
import Testing

/// `paths` reads a stored path for each different path of a group; the column must read back as written, whatever
/// the names hold, and anything that is not an array of names must read as no path.
@Suite("Stored screen paths read back as written")
struct StoredScreenPathTests {
    @Test("names with quotes, backslashes, control characters and non-ASCII round-trip", arguments: 0..<20)
    func roundTrip(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = ["item", "Home", "\"", "\\", "\u{1}", "\n", "é", "日本", "/", " ", ""]
        for _ in 0..<50 {
            // Given names made of ordinary and awkward pieces
            let names = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            }
            let path = StoredScreenPath(screens: names, manifest: "0123456789abcdef")
            // When its column is read back, Then it is the same path
            #expect(StoredScreenPath(screensJSON: path.screensJSON, manifest: path.manifest) == path, "\(names)")
        }
    }

    @Test(
        "what is not an array of names reads as no path; spaces are allowed",
        arguments: [
            (#"["a",]"#, nil), (#"["a""b"]"#, nil), (#"[1]"#, nil), (#"{"a":1}"#, nil), (#"["a""#, nil), (#""a""#, nil),
            (#"[""#, nil), (#"]"#, nil), ("", nil), (#"["a",1]"#, nil), (#"[ "a" , "b" ]"#, ["a", "b"]), ("[]", []),
            (#"["a\u0041"]"#, ["aA"]), (#"[""]"#, [""]),
        ] as [(String, [String]?)])
    func malformed(json: String, expected: [String]?) {
        #expect(StoredScreenPath(screensJSON: json, manifest: "m")?.screens == expected)
    }

    @Test("the last names read as bytes are the last names the parser reads, for any count", arguments: 0..<10)
    func lastNames(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = ["item", "Home", "\"", "\\", "\u{1}", "é", "日本", "a\u{0}b", " ", ""]
        for _ in 0..<50 {
            // Given a stored path, its names plain (read without the parser) or not
            let names = (0..<Int.random(in: 0...16, using: &random)).map { _ in
                (0..<Int.random(in: 1...2, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            }
            let json = StoredScreenPath(screens: names, manifest: "m").screensJSON
            let plain = !names.contains { $0.contains("\"") || $0.contains("\\") || $0.unicodeScalars.contains { $0.value < 0x20 } }
            for count in [-1, 0, 1, 3, 5, 16, 17] {
                let expected = Array(names.suffix(max(0, count)))
                // When its last names are read as strings, Then they are the path's last names
                #expect(
                    StoredScreenPath(screensJSON: json, manifest: "m").map { Array($0.screens.suffix(max(0, count))) } == expected,
                    "\(json) \(count)")
                // When they are read as bytes, Then they are the same names, exactly when the names are plain
                var bytes: [String]?
                let read = StoredScreenPath.withLastNames(json, count: count) { bytes = $0.map { String(decoding: $0, as: UTF8.self) } }
                #expect(read == plain, "\(json) \(count)")
                #expect(bytes == (plain ? expected : nil), "\(json) \(count)")
            }
        }
        // What is not an array of names has no last names
        #expect(StoredScreenPath(screensJSON: #"["a",]"#, manifest: "m") == nil)
        #expect(!StoredScreenPath.withLastNames(#"["a",]"#, count: 1) { _ in Issue.record("called for what is not an array of names") })
    }

    @Test("either column missing reads as no path")
    func missingColumns() {
        #expect(StoredScreenPath(screensJSON: nil, manifest: "m") == nil)
        #expect(StoredScreenPath(screensJSON: "[]", manifest: nil) == nil)
    }
}
