/// The text of a JSON string, read from its bytes: the one place crashtrail's two JSON readers unescape strings.
///
/// It checks as it reads (raw control characters, escapes, hex digits, surrogate pairs, UTF-8), so the strict
/// ``JSONParser`` relies on it alone; the skimming decoder reads only strings its validator has already passed, where
/// a lone surrogate escape or invalid UTF-8 is all that can still fail.
package enum JSONString {
    /// Why a string could not be read, with where.
    package enum ReadError: Error, Equatable {
        /// The text ends inside the string; `inEscape` when inside a `\u` escape.
        case truncated(inEscape: Bool)
        /// A raw control character (below 0x20) at this offset.
        case controlCharacter(offset: Int)
        /// A backslash at this offset followed by `byte`, which no escape starts with.
        case invalidEscape(offset: Int, byte: UInt8)
        /// A byte at this offset that is not a hex digit, inside a `\u` escape.
        case invalidHexDigit(offset: Int)
        /// A surrogate escape with no partner, ending at this offset, for this code unit.
        case loneSurrogate(offset: Int, codeUnit: UInt32)
        /// The string's bytes are not UTF-8.
        case invalidUTF8
    }

    /// Reads the string whose opening quote is at `quote`, failing as the JSON readers fail.
    /// - Returns: the string's text, and the index just past its closing quote.
    /// - Throws: `JSONParseError` naming the problem, its line and byte.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, quoteAt quote: Int) throws(JSONParseError) -> (text: String, end: Int) {
        do {
            return try read(bytes, from: quote + 1)
        } catch {
            throw error.parseError(stringAt: quote, in: bytes)
        }
    }

    /// Reads the string whose content starts at `start`, just after its opening quote, up to its closing quote.
    /// - Parameters:
    ///   - bytes: the JSON text.
    ///   - start: the index just after the opening quote.
    /// - Returns: the string's text, and the index just past its closing quote.
    /// - Throws: ``ReadError`` naming the problem and its offset.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(ReadError) -> (text: String, end: Int) {
        guard let base = bytes.baseAddress else { throw .truncated(inEscape: false) }
        // Most strings hold no escape: one scan to the closing quote, then the bytes as they are.
        let stop = JSONBytes.stringStop(base, from: start, count: bytes.count)
        if stop < bytes.count, base[stop] == .quote {
            guard let text = String(utf8Validating: UnsafeBufferPointer(start: base + start, count: stop - start)) else {
                throw .invalidUTF8
            }
            return (text, stop + 1)
        }
        var utf8: [UInt8] = []
        utf8.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
        var index = stop
        while true {
            guard index < bytes.count else { throw .truncated(inEscape: false) }
            let byte = base[index]
            switch byte {
            case .quote:
                guard let text = String(utf8Validating: utf8) else { throw .invalidUTF8 }
                return (text, index + 1)
            case .backslash:
                guard index + 1 < bytes.count else { throw .truncated(inEscape: false) }
                let escape = base[index + 1]
                let escapeStart = index
                index += 2
                switch escape {
                case .quote, .backslash, .slash: utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(bytes, at: index)
                    index += 4
                    if scalar >= 0xD800, scalar < 0xDC00 {
                        guard index + 1 < bytes.count, base[index] == .backslash, base[index + 1] == UInt8(ascii: "u") else {
                            throw .loneSurrogate(offset: index, codeUnit: scalar)
                        }
                        let low = try hex4(bytes, at: index + 2)
                        guard low >= 0xDC00, low < 0xE000 else { throw .loneSurrogate(offset: index + 6, codeUnit: scalar) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    } else if scalar >= 0xDC00, scalar < 0xE000 {
                        throw .loneSurrogate(offset: index, codeUnit: scalar)
                    }
                    appendUTF8(scalar, to: &utf8)
                default:
                    throw .invalidEscape(offset: escapeStart, byte: escape)
                }
            default:
                guard byte >= .space else { throw .controlCharacter(offset: index) }
                let run = JSONBytes.stringStop(base, from: index + 1, count: bytes.count)
                utf8.append(contentsOf: UnsafeBufferPointer(start: base + index, count: run - index))
                index = run
            }
        }
    }

    /// The four hex digits at `index`.
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws(ReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .truncated(inEscape: true) }
        var value: UInt32 = 0
        for offset in index..<index + 4 {
            guard let digit = JSONBytes.hexValue(bytes[offset]) else { throw .invalidHexDigit(offset: offset) }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Appends a scalar (never a surrogate) as UTF-8.
    private static func appendUTF8(_ scalar: UInt32, to utf8: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            utf8.append(UInt8(scalar))
        case ..<0x800:
            utf8.append(0xC0 | UInt8(scalar >> 6))
            utf8.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            utf8.append(0xE0 | UInt8(scalar >> 12))
            utf8.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            utf8.append(0x80 | UInt8(scalar & 0x3F))
        default:
            utf8.append(0xF0 | UInt8(scalar >> 18))
            utf8.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            utf8.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            utf8.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}

extension JSONString.ReadError {
    /// The problem as the JSON readers report it: a `JSONParseError` at its byte, or at the string's quote `start`.
    package func parseError(stringAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
        switch self {
        case .truncated(let inEscape):
            JSONParseError(
                .truncated, inEscape ? "the JSON text ends inside a \\u escape" : "the JSON text ends inside a string", at: start,
                in: bytes)
        case .controlCharacter(let offset): JSONParseError(.syntax, "unescaped control character in a string", at: offset, in: bytes)
        case .invalidEscape(let offset, let byte):
            JSONParseError(.syntax, "invalid escape \\\(Character(Unicode.Scalar(byte)))", at: offset, in: bytes)
        case .invalidHexDigit(let offset): JSONParseError(.syntax, "invalid hex digit in a \\u escape", at: offset, in: bytes)
        case .loneSurrogate(let offset, _): JSONParseError(.invalidUnicode, "lone surrogate escape in a string", at: offset, in: bytes)
        case .invalidUTF8: JSONParseError(.invalidUnicode, "string is not valid UTF-8", at: start, in: bytes)
        }
    }
}
