import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailStore

/// Format detection's key scan skips strings sixteen bytes at a time; it must find what a plain byte loop finds.
@Suite struct TopLevelKeysTests {
    /// The scan as first written: byte by byte.
    private func reference(_ bytes: [UInt8]) -> (keys: Set<String>, end: Int?)? {
        var index = 0
        while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        var keys: Set<String> = []
        var depth = 0
        var expectingKey = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index + 1
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return (keys, nil) }
                if depth == 1, expectingKey {
                    keys.insert(String(decoding: bytes[start..<index], as: UTF8.self))
                    expectingKey = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return (keys, index + 1) }
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
            default: break
            }
            index += 1
        }
        return (keys, nil)
    }

    @Test func findsWhatAByteLoopFinds() {
        var random = SplitMix64(seed: 0x70B1)
        let pieces: [String] = [
            #"{"#, #"}"#, #"["#, #"]"#, #","#, #":"#, #"""#, #"\""#, #"\\"#, "\\", "a", "key", " ", "\n", "\u{1}", "é",
            #""a long string value that crosses sixteen-byte blocks""#, #""event_id""#, #""bug_type":"309""#, "12",
        ]
        for _ in 0..<3_000 {
            var text = "{"
            for _ in 0..<Int(random.next() % 40) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            let bytes = Array(text.utf8)
            let scanned = bytes.withUnsafeBufferPointer { TopLevelKeys.scan($0) }
            let expected = reference(bytes)
            #expect(scanned?.keys == expected?.keys && scanned?.end == expected?.end, "\(text.debugDescription)")
        }
    }

    @Test func realPayloadsGiveTheirKeysAndEnd() throws {
        let bytes = Array(#"{"event_id":"9f3c","exception":{"values":[{"type":"x\"}"}]},"level":"fatal"} "#.utf8)
        let scanned = try #require(bytes.withUnsafeBufferPointer { TopLevelKeys.scan($0) })
        #expect(scanned.keys == ["event_id", "exception", "level"])
        #expect(scanned.end == bytes.count - 1)
    }
}
