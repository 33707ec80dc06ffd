/// Bytes as lower-case hexadecimal text, two digits a byte: how digests (SHA-1, SHA-256) and UUIDs are written.
public enum Hex {
    /// `bytes` as lower-case hex, two digits a byte (`[0x0f, 0xa0]` is `0fa0`).
    public static func lowercase<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits: StaticString = "0123456789abcdef"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
