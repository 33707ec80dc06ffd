import CrashtrailStore
import Testing

/// The packed form in which a server sends a group's path counts (`COUNT:BYTES:PATH`, one after the other).
@Suite("Packed path counts")
struct PackedPathCountsTests {
    static func unpacked(_ packed: String) throws -> [(String, Int)] {
        var paths: [(String, Int)] = []
        try PackedPathCounts.forEach(in: packed) { paths.append(($0, $1)) }
        return paths
    }

    @Test("Paths split by their byte lengths, whatever characters they hold")
    func splits() throws {
        let paths = [(#"["a:1","b"]"#, 3), ("", 1), ("12:34:", 123_456_789_012), (#"["Café","日本","🧭"]"#, 2), ("0", 5)]
        let packed = paths.map { "\($0.1):\($0.0.utf8.count):\($0.0)" }.joined()
        let read = try Self.unpacked(packed)
        #expect(read.map(\.0) == paths.map(\.0))
        #expect(read.map(\.1) == paths.map(\.1))
        #expect(try Self.unpacked("").isEmpty)
    }

    @Test("A text that does not follow the form is refused, naming the byte, and never read past its end")
    func refusesMalformed() {
        for (packed, byte) in [
            ("3", 0), ("3:", 2), ("3:4", 2), ("3:4:ab", 4), ("x:1:a", 0), ("3:-1:a", 2), (":1:a", 0), ("3::a", 2),
            ("1:1:a2", 5), ("1:1:a2:9:abc", 9), ("1234567890123456789:1:a", 0),
        ] {
            do {
                _ = try Self.unpacked(packed)
                Issue.record("\(packed) was read")
            } catch let error as StoreError {
                #expect(error.message.contains("at byte \(byte);"), "\(packed): \(error.message)")
            } catch {
                Issue.record("\(packed): \(error)")
            }
        }
    }
}
