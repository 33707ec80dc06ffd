/// A run of decimal digits (leading zeros included) packed as a big-endian binary number of the fewest bytes
/// that hold any number of that many digits: 20 digits take 9 bytes instead of 20 characters.
enum DecimalDigits {
    /// Runs longer than this stay text.
    static let maximumCount = 64

    /// Where the trailing run of decimal digits of `L-65586` or `DE0012…` starts, when there is one of at most
    /// ``maximumCount`` digits.
    static func trailingRunStart(_ bytes: [UInt8]) -> Int? {
        var start = bytes.count
        while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start - 1]) { start -= 1 }
        let digits = bytes.count - start
        return digits > 0 && digits <= maximumCount ? start : nil
    }

    /// The bytes a run of `count` digits packs into.
    static func width(ofDigits count: Int) -> Int {
        // Bits of 10^count - 1 are floor(count * log2 10) + 1, since 10^count is never a power of two.
        let bits = Int((Double(count) * 3.321928094887362).rounded(.down)) + 1
        return (bits + 7) / 8
    }

    /// The packed bytes of ASCII digits.
    static func pack(_ digits: ArraySlice<UInt8>) -> [UInt8] {
        var number = [UInt8](repeating: 0, count: width(ofDigits: digits.count))
        for digit in digits {
            var carry = UInt32(digit - UInt8(ascii: "0"))
            for index in number.indices.reversed() {
                let value = UInt32(number[index]) * 10 + carry
                number[index] = UInt8(truncatingIfNeeded: value)
                carry = value >> 8
            }
        }
        return number
    }

    /// The `count` ASCII digits of a packed number, nil when it has more than `count` digits.
    static func unpack(_ bytes: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        var number = Array(bytes)
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: count)
        for position in stride(from: count - 1, through: 0, by: -1) {
            var remainder: UInt32 = 0
            for index in number.indices {
                let value = remainder << 8 | UInt32(number[index])
                number[index] = UInt8(value / 10)
                remainder = value % 10
            }
            digits[position] = UInt8(ascii: "0") + UInt8(remainder)
        }
        return number.allSatisfy { $0 == 0 } ? digits : nil
    }
}
