/// A strict JSON parser for trails and other documents crashtrail must not misread.
///
/// Unlike Foundation's parsers it refuses what SPEC section 5 refuses: fractional numbers (any `.` or
/// exponent), integers beyond 64 bits, duplicate object keys, invalid UTF-8 and lone surrogate escapes.
/// Nesting is bounded, so hostile input cannot exhaust the stack.
public struct JSONParser {
    /// The deepest nesting accepted by default.
    public static let defaultMaximumDepth = 512

    /// Parses one JSON document that fills `bytes` (surrounding whitespace allowed).
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text.
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted.
    /// - Returns: the parsed value.
    /// - Throws: `JSONParseError` naming the line and problem.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError)
        -> JSONValue
    {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            var parser = Parser(bytes: buffer, maximumDepth: maximumDepth)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            if parser.position != buffer.count {
                throw parser.error(.syntax, "unexpected text after the JSON value")
            }
            return value
        }
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ code: JSONParseError.Code, _ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        for index in 0..<offset where bytes[index] == 0x0A { line += 1 }
        return JSONParseError(code: code, message: message, offset: offset, line: line)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(.truncated, "the JSON text ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try parseNumber())
        default: throw error(.syntax, "unexpected character \(describe(bytes[position])) where a value was expected")
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard position + count <= bytes.count else { throw error(.truncated, "the JSON text ends inside a literal") }
        for index in 0..<count where bytes[position + index] != start[index] {
            throw error(.syntax, "invalid literal, expected \(literal)")
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw error(.tooDeep, "nesting deeper than \(maximumDepth) levels") }
        position += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside an object") }
            guard bytes[position] == UInt8(ascii: "\"") else {
                throw error(.syntax, "expected a string key, found \(describe(bytes[position]))")
            }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside an object") }
            guard bytes[position] == UInt8(ascii: ":") else { throw error(.syntax, "expected ':' after key \"\(key)\"") }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if object.updateValue(value, forKey: key) != nil {
                throw error(.duplicateKey, "duplicate key \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(object)
            default: throw error(.syntax, "expected ',' or '}' in an object, found \(describe(bytes[position]))")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw error(.tooDeep, "nesting deeper than \(maximumDepth) levels") }
        position += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside an array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(array)
            default: throw error(.syntax, "expected ',' or ']' in an array, found \(describe(bytes[position]))")
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> Int64 {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let digitsStart = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            position += 1
        }
        let digitCount = position - digitsStart
        guard digitCount > 0 else { throw error(.syntax, "a number needs digits", at: start) }
        if digitCount > 1, bytes[digitsStart] == UInt8(ascii: "0") {
            throw error(.syntax, "a number must not have leading zeros", at: start)
        }
        if position < bytes.count,
            bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
        {
            throw error(.fractionalNumber, "fractional or exponent numbers are not allowed; write an integer", at: start)
        }
        // Accumulate negatively so that Int64.min parses.
        var value: Int64 = 0
        for index in digitsStart..<position {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 {
                throw error(.integerOutOfRange, "integer beyond 64 bits", at: start)
            }
            value = next
        }
        if negative { return value }
        guard value != Int64.min else { throw error(.integerOutOfRange, "integer beyond 64 bits", at: start) }
        return -value
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        // Fast path: no escapes.
        var scan = position
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[position..<scan])
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw error(.invalidUnicode, "string is not valid UTF-8", at: start)
                }
                position = scan + 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.syntax, "unescaped control character in a string", at: scan) }
            scan += 1
        }
        var utf8: [UInt8] = []
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<scan]))
        position = scan
        while true {
            guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside a string", at: start) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw error(.invalidUnicode, "string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error(.truncated, "the JSON text ends inside a string", at: start) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error(.invalidUnicode, "lone surrogate escape in a string", at: position) }
                        position += 2
                        let low = try parseHex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw error(.invalidUnicode, "lone surrogate escape in a string", at: position)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw error(.invalidUnicode, "lone surrogate escape in a string", at: position)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw error(.invalidUnicode, "invalid Unicode escape", at: position)
                    }
                    utf8.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw error(.syntax, "invalid escape \\\(Character(Unicode.Scalar(escape)))", at: position - 2)
                }
            default:
                if byte < 0x20 { throw error(.syntax, "unescaped control character in a string", at: position) }
                utf8.append(byte)
                position += 1
            }
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error(.truncated, "the JSON text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(.syntax, "invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
