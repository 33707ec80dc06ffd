import CrashtrailCore

/// A Sentry event's JSON as it came: keys in their order, numbers as their text, so what crashtrail passes on is the
/// event with additions only, and fast to read and write (Foundation's `JSONSerialization` costs more than the rest of
/// forwarding together).
package indirect enum EventJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, as the text that wrote it.
    case number(String)
    case string(String)
    case array([EventJSON])
    case object(EventObject)
    /// A value as the bytes that wrote it, checked as JSON when it was read and written back unchanged: the members of
    /// an event that crashtrail passes on without reading them (``parse(_:readingMembers:)``).
    case verbatim(ArraySlice<UInt8>)

    /// A number from an integer.
    package static func int(_ value: Int) -> EventJSON { .number(String(value)) }

    /// A number from a `Double`, as Swift writes it shortest.
    package static func double(_ value: Double) -> EventJSON {
        value.isFinite ? .number(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)") : .null
    }

    package var object: EventObject? { if case .object(let object) = self { object } else { nil } }
    package var array: [EventJSON]? { if case .array(let array) = self { array } else { nil } }
    package var string: String? { if case .string(let string) = self { string } else { nil } }

    /// The value of a number, or nil.
    package var double: Double? { if case .number(let text) = self { Double(text) } else { nil } }

    /// Parses `bytes`: one JSON value, with nothing but white space after it.
    ///
    /// It reads on the JSON byte layer the other readers share (`JSONBytes`, `JSONString`) and fails as they do, but
    /// keeps what they normalize: the keys' order and each number's text.
    /// - Throws: `JSONParseError` with the line and byte of the problem.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> EventJSON {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(bytes: buffer)
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.error(.syntax, "text after the value", at: reader.index) }
            return value
        }
    }

    /// Parses `bytes` as ``parse(_:)`` does, except that the members of a top-level object whose keys are not in
    /// `members` are only checked, and kept as the bytes that wrote them (``verbatim(_:)``).
    ///
    /// Forwarding reads and changes a few members of an event and passes the rest on as they came: skipping a value
    /// costs a fraction of building it, and writing it back is a copy.
    /// - Throws: `JSONParseError` with the line and byte of the problem, wherever it is.
    package static func parse(_ bytes: [UInt8], readingMembers members: Set<String>) throws(JSONParseError) -> EventJSON {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(bytes: buffer)
            reader.skipWhitespace()
            let value: EventJSON
            if reader.index < buffer.count, buffer[reader.index] == UInt8(ascii: "{") {
                var object = EventObject()
                try reader.members(depth: 0) { reader, key throws(JSONParseError) in
                    guard let key else { return }
                    if members.contains(key) {
                        object[key] = try reader.value(depth: 1)
                    } else {
                        reader.skipWhitespace()
                        let start = reader.index
                        try reader.skipValue(depth: 1)
                        object[key] = .verbatim(bytes[start..<reader.index])
                    }
                }
                value = .object(object)
            } else {
                value = try reader.value(depth: 0)
            }
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.error(.syntax, "text after the value", at: reader.index) }
            return value
        }
    }

    /// The JSON text.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    package func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): CanonicalJSON.writeString(text, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for index in object.keys.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                CanonicalJSON.writeString(object.keys[index], into: &out)
                out.append(UInt8(ascii: ":"))
                object.values[index].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .verbatim(let bytes): out += bytes
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 128

        /// The problem `message` at `offset`, with its line.
        func error(_ code: JSONParseError.Code, _ message: String, at offset: Int) -> JSONParseError {
            JSONParseError(code, message, at: offset, in: bytes)
        }

        mutating func skipWhitespace() {
            while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(JSONParseError) -> EventJSON {
            guard depth < Self.maximumDepth else { throw error(.tooDeep, "nesting deeper than 128", at: index) }
            skipWhitespace()
            guard index < bytes.count else { throw error(.truncated, "the text ends where a value should be", at: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                var object = EventObject()
                try members(depth: depth) { reader, key throws(JSONParseError) in
                    if let key { object[key] = try reader.value(depth: depth + 1) }
                }
                return .object(object)
            case UInt8(ascii: "["):
                var values: [EventJSON] = []
                try elements(depth: depth) { reader throws(JSONParseError) in values.append(try reader.value(depth: depth + 1)) }
                return .array(values)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return .number(try number())
            }
        }

        /// Checks the value at the index and moves past it, building nothing: the same checks as ``value(depth:)``.
        mutating func skipValue(depth: Int) throws(JSONParseError) {
            guard depth < Self.maximumDepth else { throw error(.tooDeep, "nesting deeper than 128", at: index) }
            skipWhitespace()
            guard index < bytes.count else { throw error(.truncated, "the text ends where a value should be", at: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                try members(depth: depth, readingKeys: false) { reader, _ throws(JSONParseError) in
                    try reader.skipValue(depth: depth + 1)
                }
            case UInt8(ascii: "["):
                try elements(depth: depth) { reader throws(JSONParseError) in try reader.skipValue(depth: depth + 1) }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"): _ = try literal("true", .null)
            case UInt8(ascii: "f"): _ = try literal("false", .null)
            case UInt8(ascii: "n"): _ = try literal("null", .null)
            default:
                _ = try number()
            }
        }

        /// Walks the object whose `{` is at the index: `member` reads each member's value, given its key (nil when
        /// `readingKeys` is false, and the keys are only checked).
        mutating func members(
            depth: Int, readingKeys: Bool = true, member: (inout Reader, String?) throws(JSONParseError) -> Void
        ) throws(JSONParseError) {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error(.syntax, "an object's key should be a string", at: index)
                }
                let key: String?
                if readingKeys {
                    key = try string()
                } else {
                    try skipString()
                    key = nil
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error(.syntax, "a ':' should follow a key", at: index)
                }
                index += 1
                try member(&self, key)
                skipWhitespace()
                guard index < bytes.count else { throw error(.truncated, "the text ends inside an object", at: index) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return
                } else {
                    throw error(.syntax, "',' or '}' should follow a member", at: index)
                }
            }
        }

        /// Reads the array whose `[` is at the index; `element` reads each element.
        mutating func elements(depth: Int, element: (inout Reader) throws(JSONParseError) -> Void) throws(JSONParseError) {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try element(&self)
                skipWhitespace()
                guard index < bytes.count else { throw error(.truncated, "the text ends inside an array", at: index) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return
                } else {
                    throw error(.syntax, "',' or ']' should follow an element", at: index)
                }
            }
        }

        /// The text of the number at the index.
        mutating func number() throws(JSONParseError) -> String {
            let start = index
            while index < bytes.count, JSONBytes.isNumberByte(bytes[index]) { index += 1 }
            guard index > start, let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self),
                Double(text) != nil
            else { throw error(.syntax, "\(JSONBytes.describe(bytes[start])) does not start a value", at: start) }
            return text
        }

        /// Checks the string whose opening quote is at the index and moves past it.
        ///
        /// A string without escapes whose bytes are UTF-8 is only scanned; any other is read, to fail as ``string()``
        /// fails.
        mutating func skipString() throws(JSONParseError) {
            if let base = bytes.baseAddress {
                let stop = JSONBytes.stringStop(base, from: index + 1, count: bytes.count)
                if stop < bytes.count, base[stop] == .quote {
                    let text = UnsafeBufferPointer(start: base + index + 1, count: stop - index - 1)
                    if text.allSatisfy({ $0 < 0x80 }) || String(validating: text, as: UTF8.self) != nil {
                        index = stop + 1
                        return
                    }
                }
            }
            _ = try string()
        }

        mutating func string() throws(JSONParseError) -> String {
            let (text, end) = try JSONString.parse(bytes, quoteAt: index)
            index = end
            return text
        }

        mutating func literal(_ word: String, _ value: EventJSON) throws(JSONParseError) -> EventJSON {
            let utf8 = Array(word.utf8)
            guard index + utf8.count <= bytes.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else {
                throw error(.syntax, "expected \(word)", at: index)
            }
            index += utf8.count
            return value
        }
    }
}

/// A JSON object with its keys in order; setting a key that is there replaces its value in place.
package struct EventObject: Hashable, Sendable {
    package private(set) var keys: [String] = []
    package private(set) var values: [EventJSON] = []

    package init() {}

    package init(_ members: [(String, EventJSON)]) {
        for (key, value) in members { self[key] = value }
    }

    package subscript(key: String) -> EventJSON? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }
}
