/// Base64url (RFC 4648 section 5) without padding, strict: no padding, whitespace or other characters, and no
/// stray bits in the last character, so every byte string has exactly one text.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Why a text was refused.
    enum DecodeError: Error, Equatable {
        /// A character outside the alphabet, at this offset.
        case invalidCharacter(Character, offset: Int)
        /// A length no byte string encodes to (one character past a multiple of four).
        case impossibleLength(Int)
        /// The last character carries bits that are not zero.
        case nonZeroPadding
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let value = UInt32(bytes[index]) << 16
            for shift in [18, 12] { out.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
        case 2:
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            for shift in [18, 12, 6] { out.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol) throws(DecodeError) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { throw .impossibleLength(characters.count) }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, character) in characters.enumerated() {
            let value = values[Int(character)]
            guard value != 0xFF else {
                let scalar = String(decoding: characters[offset...].prefix(4), as: UTF8.self).first ?? "?"
                throw .invalidCharacter(scalar, offset: offset)
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { throw .nonZeroPadding }
        return out
    }
}
