/// The JSON byte layer under both of crashtrail's JSON readers, the strict ``JSONParser`` (trails, manifests) and the
/// collector's lenient skimming decoder (crash payloads): character classes, hex digits, how a byte is named in a
/// message, and fast scans inside strings.
package enum JSONBytes {
    // The scans are in the collector's and the parser's innermost loops, in other modules: every function here is
    // @inlinable, so it inlines across modules as it did within one.
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inlinable @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { byte &- .zero < 10 }

    /// Whether a byte can be part of a number: a digit, `-`, `+`, `.`, `e` or `E`.
    @inlinable @inline(__always)
    package static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == .minus || byte == .plus || byte == .period || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// Whether a byte is JSON whitespace: space, tab, line feed or carriage return.
    @inlinable @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .newline || byte == .carriageReturn || byte == .tab
    }

    /// A byte as a reader would name it in a message: `'x'` when printable ASCII, else `byte 0xNN`.
    package static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// The value of a hex digit, or nil.
    @inlinable @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case .zero ... .nine: byte - .zero
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The high bit of each byte of `word` that equals `byte`.
    ///
    /// Only the lowest flag is exact: a match can also
    /// flag bytes above it, which is enough to find the first one.
    @inlinable @inline(__always)
    static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    /// Whether any byte of a (little-endian) word is below 0x20; as exact as `matches`.
    @inlinable @inline(__always)
    static func controls(_ word: UInt64) -> UInt64 {
        (word &- ones &* 0x20) & ~word & highBits
    }

    @inlinable @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// The first index at or after `start` holding `"`, `\` or a control character (below 0x20), or `count`:
    /// eight bytes at a time, then byte by byte.
    @inlinable @inline(__always)
    package static func stringStop(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        // Sixteen bytes at a time (SSE2 / NEON) while none stops the string.
        while index + 16 <= count {
            let vector = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let stops =
                (vector .== SIMD16<UInt8>(repeating: 0x22)) .| (vector .== SIMD16<UInt8>(repeating: 0x5C))
                .| (vector .< SIMD16<UInt8>(repeating: 0x20))
            if any(stops) { break }
            index += 16
        }
        while index + 8 <= count {
            let word = word(base, at: index)
            let stops = matches(word, .quote) | matches(word, .backslash) | controls(word)
            if stops != 0 { return index + stops.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte == .quote || byte == .backslash || byte < .space { return index }
            index += 1
        }
        return count
    }

    /// Where a string of a validated document ends, given the index just after its opening quote.
    /// - Returns: the index of the closing quote, whether the string holds escapes, and whether it is all ASCII.
    @inlinable @inline(__always)
    package static func scanString(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (end: Int, escaped: Bool, ascii: Bool) {
        var index = start
        var escaped = false
        var seen: UInt64 = 0
        var seenVector = SIMD16<UInt8>(repeating: 0)
        while true {
            while index + 16 <= count {
                let vector = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                if any((vector .== SIMD16<UInt8>(repeating: 0x22)) .| (vector .== SIMD16<UInt8>(repeating: 0x5C))) { break }
                seenVector |= vector
                index += 16
            }
            while index + 8 <= count {
                let word = word(base, at: index)
                let stops = matches(word, .quote) | matches(word, .backslash)
                if stops != 0 {
                    let stop = stops.trailingZeroBitCount >> 3
                    // Only the bytes before the stop belong to the string's text so far.
                    seen |= stop == 0 ? 0 : word & (UInt64.max >> (64 - stop * 8))
                    index += stop
                    break
                }
                seen |= word
                index += 8
            }
            // The document is validated, so the string closes before `count`.
            while base[index] != .quote && base[index] != .backslash {
                seen |= UInt64(base[index])
                index += 1
            }
            if base[index] == .quote {
                return (index, escaped, seen & highBits == 0 && !any(seenVector .>= SIMD16<UInt8>(repeating: 0x80)))
            }
            // An escape: its own bytes are ASCII, and `\uXXXX` holds no quote or backslash after the `u`.
            escaped = true
            index += 2
        }
    }
}

/// The bytes JSON syntax is made of, as constants that fold at compile time.
extension UInt8 {
    @inlinable package static var tab: UInt8 { 0x09 }
    @inlinable package static var newline: UInt8 { 0x0A }
    @inlinable package static var carriageReturn: UInt8 { 0x0D }
    @inlinable package static var space: UInt8 { 0x20 }
    @inlinable package static var quote: UInt8 { 0x22 }
    @inlinable package static var backslash: UInt8 { 0x5C }
    @inlinable package static var slash: UInt8 { 0x2F }
    @inlinable package static var comma: UInt8 { 0x2C }
    @inlinable package static var colon: UInt8 { 0x3A }
    @inlinable package static var period: UInt8 { 0x2E }
    @inlinable package static var plus: UInt8 { 0x2B }
    @inlinable package static var minus: UInt8 { 0x2D }
    @inlinable package static var zero: UInt8 { 0x30 }
    @inlinable package static var nine: UInt8 { 0x39 }
    @inlinable package static var openBrace: UInt8 { 0x7B }
    @inlinable package static var closeBrace: UInt8 { 0x7D }
    @inlinable package static var openBracket: UInt8 { 0x5B }
    @inlinable package static var closeBracket: UInt8 { 0x5D }
}
