import CrashtrailCore

/// Checks that bytes are one JSON text (RFC 8259) in a single pass, without building any value, and records
/// where every array and object ends (`JSONStructure`).
///
/// Everything is checked, including the parts no decoder will read: the grammar of every number (no leading
/// zeros, digits after `.` and `e`), every string (closed, no raw control character below 0x20, only the escapes
/// `\" \\ \/ \b \f \n \r \t \uXXXX`), the literals, commas and colons (no trailing comma), and the nesting
/// depth (at most 512 arrays and objects, as Foundation and `JSONParser` allow). A UTF-8 byte order mark before
/// the value is skipped, as Foundation does.
///
/// Not checked here, because they are properties of values rather than syntax: UTF-8 validity and surrogate
/// pairing inside strings, and whether a number fits a Swift type. The decoder checks those in the strings and
/// numbers it reads (and in every key of an object it opens), as Foundation does.
struct JSONValidator {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0
    /// The spans recorded so far (handed to `JSONStructure` at the end, freed here on failure).
    private var spans: UnsafeMutablePointer<JSONStructure.Span>
    private var spanCount = 0
    private var spanCapacity: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>) {
        self.bytes = bytes
        self.base = base
        self.count = bytes.count
        spanCapacity = max(16, bytes.count / 64)
        spans = .allocate(capacity: spanCapacity)
    }

    /// Validates `bytes` as one JSON text, surrounded by optional whitespace.
    /// - Returns: where every array and object ends.
    /// - Throws: `JSONParseError` (`syntax`, or `truncated` where the text ends early) naming the offset, line and what
    ///   was expected there.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONStructure {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONParseError(.truncated, "the text is empty where a JSON value was expected", at: 0, in: bytes)
        }
        var validator = JSONValidator(bytes, base: base)
        do {
            let root = try validator.run()
            return JSONStructure(spans: validator.spans, count: validator.spanCount, root: root)
        } catch {
            validator.spans.deallocate()
            throw error
        }
    }

    /// Opens a span; `close` fills it in.
    /// - Returns: its number.
    @inline(__always)
    private mutating func openSpan() -> Int {
        if spanCount == spanCapacity {
            let grown = UnsafeMutablePointer<JSONStructure.Span>.allocate(capacity: spanCapacity * 2)
            grown.moveInitialize(from: spans, count: spanCount)
            spans.deallocate()
            spans = grown
            spanCapacity *= 2
        }
        spans[spanCount] = JSONStructure.Span(end: 0, after: 0)
        spanCount += 1
        return spanCount - 1
    }

    // MARK: - The document

    /// Validates the whole text and returns the offset of the root value.
    private mutating func run() throws(JSONParseError) -> Int {
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        skipWhitespace()
        let root = position
        // The open containers, innermost last: span number << 1, low bit set for an object.
        let stack = UnsafeMutablePointer<Int>.allocate(capacity: Self.maximumDepth)
        defer { stack.deallocate() }
        var depth = 0
        var inObject = false

        value: while true {
            guard position < count else { throw truncated(expecting: "a value") }
            let byte = base[position]
            switch byte {
            case .openBrace, .openBracket:
                guard depth < Self.maximumDepth else {
                    throw failure("arrays and objects nested deeper than \(Self.maximumDepth) levels", at: position)
                }
                inObject = byte == .openBrace
                stack[depth] = openSpan() << 1 | (inObject ? 1 : 0)
                depth += 1
                position += 1
                skipWhitespace()
                guard position < count else { throw truncated(expecting: inObject ? "a key or '}'" : "a value or ']'") }
                if base[position] != (inObject ? UInt8.closeBrace : .closeBracket) {
                    if inObject { try member() }
                    continue value
                }
            // An empty container: its closing bracket is handled below, like any other.
            case .quote:
                position += 1
                try skipString()
            case .minus, .zero ... .nine:
                try skipNumber()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default:
                throw failure("expected a value, found \(JSONBytes.describe(byte))", at: position)
            }

            // After a value: a comma and the next member or element, or the closing bracket of the container.
            while true {
                skipWhitespace()
                guard depth > 0 else {
                    guard position == count else {
                        throw failure(
                            "expected the end of the text after the JSON value, found \(JSONBytes.describe(base[position]))",
                            at: position)
                    }
                    return root
                }
                guard position < count else {
                    throw truncated(expecting: inObject ? "',' or '}' inside an object" : "',' or ']' inside an array")
                }
                let next = base[position]
                if next == .comma {
                    position += 1
                    skipWhitespace()
                    if inObject {
                        try member()
                    } else if position < count, base[position] == .closeBracket {
                        throw failure("expected a value after ',', found ']' (a trailing comma is not JSON)", at: position)
                    }
                    continue value
                }
                guard next == (inObject ? UInt8.closeBrace : .closeBracket) else {
                    let expected = inObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
                    throw failure("expected \(expected), found \(JSONBytes.describe(next))", at: position)
                }
                position += 1
                depth -= 1
                spans[stack[depth] >> 1] = JSONStructure.Span(end: position, after: spanCount)
                inObject = depth > 0 && stack[depth - 1] & 1 == 1
            }
        }
    }

    /// A member's key and colon, leaving `position` at its value.
    @inline(__always)
    private mutating func member() throws(JSONParseError) {
        guard position < count else { throw truncated(expecting: "a key") }
        guard base[position] == .quote else {
            if base[position] == .closeBrace {
                throw failure("expected a key after ',', found '}' (a trailing comma is not JSON)", at: position)
            }
            throw failure("expected a key (a string), found \(JSONBytes.describe(base[position]))", at: position)
        }
        position += 1
        try skipString()
        skipWhitespace()
        guard position < count else { throw truncated(expecting: "':' after a key") }
        guard base[position] == .colon else {
            throw failure("expected ':' after a key, found \(JSONBytes.describe(base[position]))", at: position)
        }
        position += 1
        skipWhitespace()
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            let byte = base[position]
            guard byte <= .space, byte == .space || byte == .newline || byte == .carriageReturn || byte == .tab else { return }
            position += 1
        }
    }

    // MARK: - Scalars

    /// Steps over the rest of a string whose opening quote is just before `position`.
    private mutating func skipString() throws(JSONParseError) {
        let start = position - 1
        while true {
            position = JSONBytes.stringStop(base, from: position, count: count)
            guard position < count else { throw truncated(expecting: "the closing '\"' of the string that starts at byte \(start)") }
            let byte = base[position]
            if byte == .quote {
                position += 1
                return
            }
            if byte == .backslash {
                try skipEscape()
            } else if byte < .space {
                throw failure(
                    "raw control character \(JSONBytes.describe(byte)) in the string that starts at byte \(start) (it must be escaped)",
                    at: position)
            } else {
                position += 1
            }
        }
    }

    private mutating func skipEscape() throws(JSONParseError) {
        let start = position
        position += 1
        guard position < count else { throw truncated(expecting: "an escape after '\\'") }
        switch base[position] {
        case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
            UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            for _ in 0..<4 {
                guard position < count else { throw truncated(expecting: "four hex digits after '\\u'") }
                guard JSONBytes.hexValue(base[position]) != nil else {
                    throw failure("expected four hex digits after '\\u', found \(JSONBytes.describe(base[position]))", at: position)
                }
                position += 1
            }
        default:
            throw failure(
                "invalid escape '\\\(Character(Unicode.Scalar(base[position])))' (JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                at: start)
        }
    }

    /// Steps over a number, checking the RFC 8259 grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() throws(JSONParseError) {
        let start = position
        if base[position] == .minus { position += 1 }
        guard position < count else { throw truncated(expecting: "a digit after '-'") }
        if base[position] == .zero {
            position += 1
            if position < count, JSONBytes.isDigit(base[position]) {
                throw failure("a number must not start with a leading zero", at: start)
            }
        } else if JSONBytes.isDigit(base[position]) {
            position += 1
            while position < count, JSONBytes.isDigit(base[position]) { position += 1 }
        } else {
            throw failure("expected a digit after '-', found \(JSONBytes.describe(base[position]))", at: position)
        }
        if position < count, base[position] == .period {
            position += 1
            try digits(after: "the decimal point")
        }
        if position < count, base[position] == UInt8(ascii: "e") || base[position] == UInt8(ascii: "E") {
            position += 1
            if position < count, base[position] == .plus || base[position] == .minus { position += 1 }
            try digits(after: "the exponent mark")
        }
        if position < count, JSONBytes.isNumberByte(base[position]) {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
            throw failure("malformed number: \(JSONBytes.describe(base[position])) after \(text)", at: position)
        }
    }

    private mutating func digits(after what: String) throws(JSONParseError) {
        guard position < count else { throw truncated(expecting: "a digit after \(what)") }
        guard JSONBytes.isDigit(base[position]) else {
            throw failure("expected a digit after \(what), found \(JSONBytes.describe(base[position]))", at: position)
        }
        while position < count, JSONBytes.isDigit(base[position]) { position += 1 }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        for index in 0..<length {
            guard position + index < count else { throw truncated(expecting: "the literal \(word)") }
            guard base[position + index] == word.utf8Start[index] else {
                throw failure("invalid literal: expected \(word)", at: position)
            }
        }
        position += length
    }

    // MARK: - Errors

    private func failure(_ message: String, at offset: Int) -> JSONParseError {
        JSONParseError(.syntax, message, at: offset, in: bytes)
    }

    private func truncated(expecting what: String) -> JSONParseError {
        JSONParseError(.truncated, "the text ends where \(what) was expected", at: count, in: bytes)
    }
}
