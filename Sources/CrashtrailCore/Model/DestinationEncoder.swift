internal import Foundation

/// Turns an app's `Encodable` destination into the ``JSONValue`` that ``Destination/init(jsonValue:)`` reads, with
/// the keys Swift's synthesized `Codable` writes (`_0` for an unlabeled associated value) and no JSON text in between.
///
/// Payload values become what a trail carries (SPEC sections 2 and 18): strings, integers, booleans, null and
/// objects. Because a trail refuses fractional numbers, a `Double` or `Float` is written as a string holding Swift's
/// shortest text that reads back to the same value (`"2.5"`, `"0.1"`, `"1e-05"`); a `Date` as RFC 3339 UTC to the
/// millisecond (`"2026-11-02T14:45:05.250Z"`, no fraction when it is zero); a `URL` as its absolute string; a
/// `Decimal` as its text; a `UUID` as its own `Codable` writes it. A nil optional is left out, as synthesized
/// `encodeIfPresent` does. ``DestinationDecoder`` reads every one of these back.
///
/// ```swift
/// enum AppDestination: Codable { case item(id: String, price: Double) }
/// try DestinationEncoder.jsonValue(of: AppDestination.item(id: "L-42", price: 2.5))
/// // {"item":{"id":"L-42","price":"2.5"}}
/// ```
final class DestinationEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What this encoder has been given so far; nil until a container is asked for.
    private(set) var slot: Slot?

    private init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// The JSON value of `value`, as a destination's payload carries it.
    /// - Throws: `DestinationError` with code `unencodable`, naming the coding path of a value a trail cannot carry
    ///   (NaN or an infinite number, an integer beyond `Int64.max`, a date outside the years 0000 to 9999) or the
    ///   error the value's own `encode(to:)` threw.
    static func jsonValue(of value: some Encodable) throws(DestinationError) -> JSONValue {
        do {
            return try slot(for: value, at: []).jsonValue
        } catch let error as DestinationError {
            throw error
        } catch let error as EncodingError {
            // What a value's own encode(to:) refused, such as an Int128 the standard library's containers do not write.
            guard case .invalidValue(let invalid, let context) = error else {
                throw DestinationError(.unencodable, "the value does not encode as a destination: \(error)", cause: error)
            }
            throw DestinationError(
                .unencodable,
                "the payload value \(invalid) at \(DestinationCodingKey.text(of: context.codingPath)) does not encode: "
                    + "\(context.debugDescription); give it a type a trail carries (a string, integer, boolean, Double, Date, "
                    + "UUID, URL or a Codable struct of them)",
                cause: error)
        } catch {
            throw DestinationError(
                .unencodable, "the value does not encode as a destination: \(error); fix the encode(to:) that threw it",
                cause: error)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: objectBox(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: arrayBox(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// Records the single value this encoder stands for.
    func set(_ value: JSONValue) {
        slot = .value(value)
    }

    /// Records the single value this encoder stands for, as a nested value's encoder left it.
    func set(slot: Slot) {
        self.slot = slot
    }

    /// The object this encoder writes; asking twice gives the same one, as Foundation's `JSONEncoder` does.
    private func objectBox() -> ObjectBox {
        if case .object(let box) = slot { return box }
        let box = ObjectBox()
        slot = .object(box)
        return box
    }

    /// The array this encoder writes; asking twice gives the same one.
    private func arrayBox() -> ArrayBox {
        if case .array(let box) = slot { return box }
        let box = ArrayBox()
        slot = .array(box)
        return box
    }
}

// MARK: - The tree being written

extension DestinationEncoder {
    /// One value of the tree being written: finished, an object or array that containers are still filling, or an
    /// encoder handed out by `superEncoder()` whose value is read when the tree is finished.
    enum Slot {
        case value(JSONValue)
        case object(ObjectBox)
        case array(ArrayBox)
        case encoder(DestinationEncoder)

        /// The finished value; an encoder that was given nothing is an empty object, as with `JSONEncoder`.
        var jsonValue: JSONValue {
            switch self {
            case .value(let value): value
            case .object(let box): .object(box.fields.mapValues(\.jsonValue))
            case .array(let box): .array(box.elements.map(\.jsonValue))
            case .encoder(let encoder): encoder.slot?.jsonValue ?? .object([:])
            }
        }
    }

    /// An object that keyed containers share while they fill it.
    final class ObjectBox {
        var fields: [String: Slot] = [:]
    }

    /// An array that unkeyed containers share while they fill it.
    final class ArrayBox {
        var elements: [Slot] = []
    }

    /// The slot of any `Encodable` value: the types a trail writes in its own way (`Date`, `URL`, `Decimal`), else
    /// what the value's `encode(to:)` gives.
    static func slot<T: Encodable>(for value: T, at path: @autoclosure () -> [any CodingKey]) throws -> Slot {
        // Metatype checks first: a failed dynamic cast costs more than a comparison, and most values are none of these.
        if T.self == Date.self, let date = value as? Date {
            return .value(try Self.date(date, at: path()))
        }
        if T.self == URL.self, let url = value as? URL {
            // URL's own Codable writes {"relative":…,"base":…}; a link is read as its absolute string.
            return .value(.string(url.absoluteString))
        }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            return .value(try Self.decimal(decimal, at: path()))
        }
        let encoder = DestinationEncoder(codingPath: path())
        try value.encode(to: encoder)
        return encoder.slot ?? .value(.object([:]))
    }

    /// A new encoder at `path` whose value `superEncoder()` hands out, and its slot.
    static func superEncoder(at path: [any CodingKey]) -> (encoder: DestinationEncoder, slot: Slot) {
        let encoder = DestinationEncoder(codingPath: path)
        return (encoder, .encoder(encoder))
    }
}

// MARK: - Scalars

extension DestinationEncoder {
    /// An integer of any width as a trail's integer.
    /// - Throws: `DestinationError` naming the path when the value is beyond `Int64`.
    static func integer<T: BinaryInteger>(_ value: T, at path: @autoclosure () -> [any CodingKey]) throws(DestinationError) -> JSONValue {
        guard let int = Int64(exactly: value) else {
            throw DestinationError(
                .unencodable,
                "the payload value at \(DestinationCodingKey.text(of: path())) is \(value), beyond \(Int64.max) (Int64.max), the "
                    + "largest integer a trail carries; store it as a String, or as an Int64 when it fits")
        }
        return .int(int)
    }

    /// A `Double` or `Float` as a string of Swift's shortest round-trip text, since trails carry no fractional numbers.
    /// - Throws: `DestinationError` naming the path when the value is NaN or infinite.
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: T, at path: @autoclosure () -> [any CodingKey]
    ) throws(DestinationError) -> JSONValue {
        guard value.isFinite else {
            let what = value.isNaN ? "NaN" : "infinite (\(value))"
            throw DestinationError(
                .unencodable,
                "the payload value at \(DestinationCodingKey.text(of: path())) is \(what), which a trail cannot carry; give it a "
                    + "finite value, or make it optional and leave it nil")
        }
        return .string(value.description)
    }

    /// A date as RFC 3339 UTC, to the nearest millisecond, with milliseconds only when there are some.
    /// - Throws: `DestinationError` naming the path when the date is not finite or falls outside the years 0000 to 9999.
    static func date(_ date: Date, at path: @autoclosure () -> [any CodingKey]) throws(DestinationError) -> JSONValue {
        // Counted from the reference date, as Date stores it, so a whole number of milliseconds is read back exactly.
        let sinceReference = (date.timeIntervalSinceReferenceDate * 1000).rounded()
        let range = Timestamp.earliestMilliseconds...Timestamp.latestMilliseconds
        // Past ±1e17 ms the date is far outside the range, and Int64(_:) could trap.
        guard sinceReference.isFinite, abs(sinceReference) < 1e17,
            range.contains(Int64(sinceReference) + referenceDateMilliseconds)
        else {
            throw DestinationError(
                .unencodable,
                "the date at \(DestinationCodingKey.text(of: path())) (\(date.timeIntervalSinceReferenceDate) s since 2001) is "
                    + "outside the years 0000 to 9999 that RFC 3339 writes; store a date within them, or leave it nil")
        }
        let milliseconds = Int64(sinceReference) + referenceDateMilliseconds
        return .string(Timestamp.rfc3339(milliseconds: milliseconds))
    }

    /// 2001-01-01T00:00:00Z, `Date`'s reference date, in milliseconds since 1970.
    static let referenceDateMilliseconds: Int64 = 978_307_200_000

    /// A decimal as its text (`"12.5"`).
    /// - Throws: `DestinationError` naming the path when the value is NaN.
    static func decimal(_ decimal: Decimal, at path: @autoclosure () -> [any CodingKey]) throws(DestinationError) -> JSONValue {
        guard !decimal.isNaN else {
            throw DestinationError(
                .unencodable,
                "the payload value at \(DestinationCodingKey.text(of: path())) is a Decimal NaN, which a trail cannot carry; give "
                    + "it a number, or make it optional and leave it nil")
        }
        return .string(decimal.description)
    }
}
