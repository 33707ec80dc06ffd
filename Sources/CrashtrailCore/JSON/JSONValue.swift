/// A JSON value as crashtrail sees it: integers only (fractional numbers are refused on input),
/// objects as unordered dictionaries (canonical output sorts their keys).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON kind of this value, for error messages ("expected a string, found an object").
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The dictionary of an object, else nil.
    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements of an array, else nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The string of a string value, else nil.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The integer of an integer value, else nil.
    public var intValue: Int64? {
        if case .int(let int) = self { return int }
        return nil
    }

    /// The value at `key` of an object, else nil.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
