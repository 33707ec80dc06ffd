internal import Foundation

/// Reads an app's `Decodable` destination from the ``JSONValue`` of a ``Destination``: the inverse of
/// ``DestinationEncoder``, with no JSON text in between.
///
/// A `Double` or `Float` is read from the string ``DestinationEncoder`` writes (`"2.5"`) or from an integer; a `Date`
/// from an RFC 3339 string, with or without a fraction of a second, with `Z` or an offset (read to the millisecond),
/// or from an integer of seconds since 2001, as `JSONEncoder`'s default wrote dates before; a `URL`, a `UUID` and a
/// `Decimal` from their strings (a `Decimal` from an integer too). Everything else is read as `JSONDecoder` reads it:
/// a missing key or a value of the wrong kind fails, a key the type does not know is ignored.
///
/// ```swift
/// let destination = try Destination(jsonValue: ["item": ["id": "L-42", "price": "2.5"]])
/// try DestinationDecoder.decode(AppDestination.self, from: destination.jsonValue)  // .item(id: "L-42", price: 2.5)
/// ```
final class DestinationDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    /// Decodes `type` from `value`.
    /// - Throws: `DestinationError` with code `typeMismatch`, naming the coding path where the value does not fit the
    ///   type (its message leaves out the destination; ``Destination/decoded(as:)`` puts it in front).
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(DestinationError) -> T {
        do {
            return try decodeValue(type, from: value, at: [])
        } catch let error as DecodingError {
            throw DestinationError(.typeMismatch, describe(error), cause: error)
        } catch let error as DestinationError {
            throw error
        } catch {
            throw DestinationError(.typeMismatch, "\(error)", cause: error)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw Self.mismatch(type, expected: "an object", found: value, at: codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw Self.mismatch([JSONValue].self, expected: "an array", found: value, at: codingPath)
        }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    /// Any `Decodable` value: the types a trail writes in its own way (`Date`, `URL`, `UUID`, `Decimal`), else what the
    /// type's `init(from:)` reads.
    static func decodeValue<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        // Metatype checks first, as in DestinationEncoder; each cast below succeeds whenever its check does.
        if T.self == Date.self, let date = try date(from: value, at: path) as? T { return date }
        if T.self == URL.self, let url = try url(from: value, at: path) as? T { return url }
        if T.self == UUID.self, let uuid = try uuid(from: value, at: path) as? T { return uuid }
        if T.self == Decimal.self, let decimal = try decimal(from: value, at: path) as? T { return decimal }
        return try T(from: DestinationDecoder(value: value, codingPath: path))
    }

    /// `DecodingError` as a person reads it: the coding path, what was wrong, and how to put it right.
    private static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        var detail: String
        switch error {
        case .keyNotFound(let key, let found):
            context = found
            detail = "no value for the key \"\(key.stringValue)\""
        case .valueNotFound(_, let found), .typeMismatch(_, let found), .dataCorrupted(let found):
            context = found
            // Foundation's and the synthesized code's descriptions end with a period; the message goes on after it.
            detail = found.debugDescription.hasSuffix(".") ? String(found.debugDescription.dropLast()) : found.debugDescription
        @unknown default:
            return "\(error); decode it as the type that recorded it"
        }
        if case .keyNotFound = error, !context.debugDescription.isEmpty { detail += " (\(context.debugDescription))" }
        return "at \(DestinationCodingKey.text(of: context.codingPath)), \(detail); decode it as the type that recorded it"
    }
}

// MARK: - Scalars

extension DestinationDecoder {
    /// The error for a value of the wrong kind, naming what was expected and what was found.
    static func mismatch(_ type: Any.Type, expected: String, found value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected), found \(value.kindName)"))
    }

    /// The error for a value of the right kind that does not hold a value of the type.
    static func corrupted(_ detail: String, at path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: detail))
    }

    static func string(from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, expected: "a string", found: value, at: path()) }
        return string
    }

    static func bool(from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, expected: "a boolean", found: value, at: path()) }
        return bool
    }

    /// An integer of any width, refused when it does not fit.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws
        -> T
    {
        guard case .int(let int) = value else { throw mismatch(type, expected: "an integer", found: value, at: path()) }
        guard let result = T(exactly: int) else {
            throw corrupted("\(int) does not fit in \(type) (\(T.min) to \(T.max))", at: path())
        }
        return result
    }

    /// A `Double` or `Float` from the string ``DestinationEncoder`` writes, or from an integer.
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, from value: JSONValue, at path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        switch value {
        case .string(let text):
            guard let result = T(text), result.isFinite else {
                throw corrupted("\"\(text)\" is not a finite \(type) written as Swift writes one, such as \"2.5\"", at: path())
            }
            return result
        case .int(let int):
            return T(int)
        default:
            throw mismatch(type, expected: "a \(type) written as a string such as \"2.5\", or an integer", found: value, at: path())
        }
    }

    /// A date from RFC 3339 text (to the millisecond), or from an integer of seconds since 2001.
    static func date(from value: JSONValue, at path: [any CodingKey]) throws -> Date {
        switch value {
        case .string(let text):
            // Timestamp also reads bare epoch numbers; a date in a payload is RFC 3339 text only.
            let isNumber = text.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
            guard !isNumber, let milliseconds = Timestamp.milliseconds(parsing: text) else {
                throw corrupted("\"\(text)\" is not an RFC 3339 date such as \"2026-11-02T14:45:05Z\"", at: path)
            }
            return Date(timeIntervalSinceReferenceDate: Double(milliseconds - DestinationEncoder.referenceDateMilliseconds) / 1000)
        case .int(let seconds):
            return Date(timeIntervalSinceReferenceDate: Double(seconds))
        default:
            throw mismatch(Date.self, expected: "an RFC 3339 date string such as \"2026-11-02T14:45:05Z\"", found: value, at: path)
        }
    }

    static func url(from value: JSONValue, at path: [any CodingKey]) throws -> URL {
        let text = try string(from: value, at: path)
        guard let url = URL(string: text) else { throw corrupted("\"\(text)\" is not a URL", at: path) }
        return url
    }

    static func uuid(from value: JSONValue, at path: [any CodingKey]) throws -> UUID {
        let text = try string(from: value, at: path)
        guard let uuid = UUID(uuidString: text) else {
            throw corrupted("\"\(text)\" is not a UUID such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", at: path)
        }
        return uuid
    }

    /// A decimal from its text, or from an integer.
    static func decimal(from value: JSONValue, at path: [any CodingKey]) throws -> Decimal {
        switch value {
        case .string(let text):
            // Decimal(string:) reads the longest number at the front ("12abc" as 12): the whole text must be one.
            let isNumber = !text.isEmpty && text.utf8.allSatisfy { JSONBytes.isNumberByte($0) }
            guard isNumber, let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
                throw corrupted("\"\(text)\" is not a decimal number such as \"12.5\"", at: path)
            }
            return decimal
        case .int(let int):
            return Decimal(int)
        default:
            throw mismatch(Decimal.self, expected: "a decimal number written as a string such as \"12.5\"", found: value, at: path)
        }
    }
}
