/// Percent-encoding as deep links use it (SPEC section 3).
package enum PercentEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Encodes every byte except the unreserved `A-Z a-z 0-9 - . _ ~`, with uppercase hex.
    package static func encode(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count)
        encode(string, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `string` encoded as ``encode(_:)`` encodes it to `out`.
    static func encode(_ string: String, into out: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// Decodes `%XX` escapes (`+` stays a plus).
    ///
    /// Returns nil for a malformed escape or bytes that are not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(utf8Validating: bytes)
    }

    /// Decodes `%XX` escapes in UTF-8 bytes.
    ///
    /// Returns nil for a malformed escape or bytes that are not UTF-8.
    package static func decode(bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { decode(utf8: $0) }
    }

    /// Decodes `%XX` escapes in UTF-8 bytes, read in place.
    ///
    /// Returns nil for a malformed escape or bytes that are not UTF-8.
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let firstEscape = bytes.firstIndex(of: UInt8(ascii: "%")) else { return String(utf8Validating: bytes) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        decoded.append(contentsOf: bytes[..<firstEscape])
        var index = firstEscape
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return decoded.withUnsafeBufferPointer { String(utf8Validating: $0) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
