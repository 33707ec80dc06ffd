import CrashtrailCore

/// A fast scan of a JSON object's top-level keys, without building values: enough to tell the formats apart
/// before the one real parse.
package struct TopLevelKeys {
    /// The top-level keys, unescaped only as far as detection needs (keys with escapes are kept raw).
    package var keys: Set<String>
    /// The index just past the object's closing brace, or nil when the object never closes (truncated).
    var end: Int?

    /// Scans the object starting at the first non-whitespace byte at or after `start`, or returns nil when
    /// there is no object there.
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> TopLevelKeys? {
        var index = start
        while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        var keys: Set<String> = []
        var depth = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let stringStart = index + 1
                index += 1
                // Jump sixteen bytes at a time to the next quote, backslash or control character.
                // A buffer with a byte at `index` has an address.
                guard let base = bytes.baseAddress else { return nil }
                while index < bytes.count {
                    index = JSONBytes.stringStop(base, from: index, count: bytes.count)
                    guard index < bytes.count, base[index] != UInt8(ascii: "\"") else { break }
                    index += base[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return TopLevelKeys(keys: keys, end: nil) }
                if depth == 1, expectingKey {
                    keys.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[stringStart..<index]), as: UTF8.self))
                    expectingKey = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return TopLevelKeys(keys: keys, end: index + 1) }
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
            default:
                break
            }
            index += 1
        }
        return TopLevelKeys(keys: keys, end: nil)
    }
}
