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
    ///   - decimalKeys: the places whose number values may have a fraction, as dotted key paths from the top object
    ///   (`session.sampleRate`): such a value is read as a fixed-point number, as an integer of billionths (`0.25` and
    ///   `0.250` as 250000000, `1` as 1000000000); more than nine fraction digits, or an exponent, is refused.
    ///   - ignoredNumberKeys: keys, at any depth, whose number values are read as any JSON number and dropped (null):
    ///   fields of other tools' documents that crashtrail does not use, such as a Sentry session's `duration`.
    ///   Every other number must be an integer.
    /// - Returns: the parsed value.
    /// - Throws: `JSONParseError` naming the line and problem.
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth, decimalKeys: Set<String> = [],
        ignoredNumberKeys: Set<String> = []
    ) throws(JSONParseError) -> JSONValue {
        // The error passes the buffer's closure as a value: the standard library of iOS 17 and earlier rethrows an
        // untyped error from `withUnsafeBufferPointer`.
        let parsed = Array(bytes).withUnsafeBufferPointer { buffer in
            Result(catchingTyped: { () throws(JSONParseError) -> JSONValue in
                var parser = Parser(
                    bytes: buffer, maximumDepth: maximumDepth, decimalKeys: decimalKeys, ignoredNumberKeys: ignoredNumberKeys)
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.position != buffer.count {
                    throw parser.error(.syntax, "unexpected text after the JSON value")
                }
                return value
            })
        }
        return try parsed.typedValue()
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let decimalKeys: Set<String>
    let ignoredNumberKeys: Set<String>
    /// The keys from the top object down to the member being read, kept only when `decimalKeys` asks for paths.
    var path: [String] = []
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, decimalKeys: Set<String>, ignoredNumberKeys: Set<String>) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.decimalKeys = decimalKeys
        self.ignoredNumberKeys = ignoredNumberKeys
    }

    func error(_ code: JSONParseError.Code, _ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(code, message, at: offset ?? position, in: bytes)
    }

    mutating func skipWhitespace() {
        while position < bytes.count, JSONBytes.isWhitespace(bytes[position]) { position += 1 }
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

    func describe(_ byte: UInt8) -> String { JSONBytes.describe(byte) }

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
            let startsNumber =
                position < bytes.count
                && (bytes[position] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]))
            let value: JSONValue
            if startsNumber, !ignoredNumberKeys.isEmpty, ignoredNumberKeys.contains(key) {
                try skipNumber()
                value = .null
            } else if !decimalKeys.isEmpty {
                path.append(key)
                if startsNumber, decimalKeys.contains(path.joined(separator: ".")) {
                    value = .int(try parseDecimal())
                } else {
                    value = try parseValue(depth: depth)
                }
                path.removeLast()
            } else {
                value = try parseValue(depth: depth)
            }
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

    /// Any JSON number (fraction, exponent, any size), read past and dropped.
    mutating func skipNumber() throws(JSONParseError) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        var digits = 0
        while position < bytes.count {
            let byte = bytes[position]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
            } else if byte != UInt8(ascii: ".") && byte != UInt8(ascii: "e") && byte != UInt8(ascii: "E") && byte != UInt8(ascii: "+")
                && byte != UInt8(ascii: "-")
            {
                break
            }
            position += 1
        }
        guard digits > 0 else { throw error(.syntax, "a number needs digits", at: start) }
    }

    /// A number of at most nine fraction digits, as an integer of billionths (`JSONParser.parse`'s `decimalKeys`).
    mutating func parseDecimal() throws(JSONParseError) -> Int64 {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte &- UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                throw error(.fractionalNumber, "exponent numbers are not allowed; write a decimal such as 0.25", at: start)
            } else {
                break
            }
            position += 1
        }
        let integerDigits = digits.count - fractionDigits
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { throw error(.syntax, "a number needs digits", at: start) }
        if integerDigits > 1, digits[0] == 0 { throw error(.syntax, "a number must not have leading zeros", at: start) }
        guard fractionDigits <= 9 else {
            throw error(.fractionalNumber, "at most nine digits may follow the decimal point", at: start)
        }
        var value: Int64 = 0
        for digit in digits + Array(repeating: 0, count: 9 - fractionDigits) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(Int64(digit))
            if overflow1 || overflow2 { throw error(.integerOutOfRange, "number too large", at: start) }
            value = next
        }
        return negative ? -value : value
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
        let (text, end) = try JSONString.parse(bytes, quoteAt: position)
        position = end
        return text
    }
}
