/// Writes JSON in crashtrail's canonical form (SPEC section 5): object keys sorted by Unicode code point,
/// no insignificant whitespace, plain integers, and only `"`, `\` and control characters escaped.
///
/// Equal values give equal bytes.
public enum CanonicalJSON {
    /// The canonical bytes of `value`.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    /// The canonical text of `value`.
    public static func string(of value: JSONValue) -> String {
        String(decoding: bytes(of: value), as: UTF8.self)
    }

    /// Appends the canonical bytes of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): out.append(contentsOf: String(int).utf8)
        case .string(let string): writeString(string, into: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, key) in sortedKeys(object).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                // The key comes from the dictionary itself, so the lookup always succeeds.
                write(object[key] ?? .null, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The keys of `object` in Unicode code point order (not Swift's default `String` order, which
    /// compares canonically equivalent forms as equal).
    public static func sortedKeys(_ object: [String: JSONValue]) -> [String] {
        object.keys.sorted(by: codePointPrecedes)
    }

    /// Whether `lhs` sorts before `rhs` by Unicode code point.
    public static func codePointPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        // UTF-8 byte order equals code point order.
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string literal.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
