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
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): writeInt(int, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object) where object.count == 1:
            // The common one-key payload needs no sorting.
            guard let (key, value) = object.first else { return }
            out.append(UInt8(ascii: "{"))
            writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(value, into: &out)
            out.append(UInt8(ascii: "}"))
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
    package static func sortedKeys(_ object: [String: JSONValue]) -> [String] {
        object.keys.sorted(by: codePointPrecedes)
    }

    /// Whether `lhs` sorts before `rhs` by Unicode code point.
    package static func codePointPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        // UTF-8 byte order equals code point order.
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `value` in decimal.
    package static func writeInt(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0, value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        // Digits are produced from the magnitude, so Int64.min needs no special case.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    /// Appends `string` as a JSON string literal.
    package static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Most strings need no escape: copy them whole.
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                appendEscape(byte, into: &out)
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: "u00".utf8)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
