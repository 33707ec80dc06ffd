extension Destination {
    /// The generic form of an app's own destination value, as its synthesized `Codable` writes it.
    ///
    /// The keys are the ones synthesized `Codable` writes (`_0`, `_1`, … for unlabeled associated values), and payload
    /// values may be of the types apps use (SPEC section 18): strings, integers, booleans, `Double` and `Float`,
    /// `Date`, `UUID`, `URL`, `Decimal`, enums with raw values, optionals, arrays and nested `Codable` structs. A trail
    /// carries no fractional numbers, so some are written as strings:
    ///
    /// - a `Double` or `Float` as Swift's shortest text that reads back to the same value: `"2.5"`, `"0.1"`, `"1e-05"`;
    /// - a `Date` as RFC 3339 UTC to the nearest millisecond, with milliseconds only when there are some:
    ///   `"2026-11-02T14:45:05Z"`, `"2026-11-02T14:45:05.250Z"`;
    /// - a `URL` as its absolute string, a `UUID` as its `uuidString`, a `Decimal` as its text (`"12.5"`);
    /// - a nil optional is left out, as synthesized `encodeIfPresent` does.
    ///
    /// ```swift
    /// enum AppDestination: Codable { case item(id: LootID), page(Int), offer(price: Double, until: Date) }
    /// try Destination(encoding: AppDestination.item(id: LootID("L-42")))  // {"item":{"id":{"rawValue":"L-42"}}}
    /// try Destination(encoding: AppDestination.page(4))  // {"page":{"_0":4}}
    /// try Destination(encoding: AppDestination.offer(price: 2.5, until: until))
    /// // {"offer":{"price":"2.5","until":"2026-11-02T14:45:05Z"}}
    /// ```
    /// - Parameter value: the app's destination, an enum case with an object payload.
    /// - Throws: `DestinationError` with code `unencodable`, naming the coding path (`offer.price`), for a value a
    ///   trail cannot carry: NaN or an infinite number, an integer beyond `Int64.max`, a date outside the years 0000 to
    ///   9999, or what the value's own `encode(to:)` threw; with code `invalidDestination` when the value is not an
    ///   enum case with an object payload.
    public init(encoding value: some Encodable) throws(DestinationError) {
        try self.init(jsonValue: try DestinationEncoder.jsonValue(of: value))
    }

    /// Decodes this destination as an app's own `Decodable` destination type, reading back what
    /// ``init(encoding:)`` writes.
    ///
    /// A `Double` or `Float` is read from its string (`"2.5"`) or from an integer; a `Date` from RFC 3339 text, with
    /// or without a fraction of a second, with `Z` or an offset (to the millisecond), or from an integer of seconds
    /// since 2001 (as trails recorded before payload dates were written as text hold them); a `URL`, `UUID` or
    /// `Decimal` from its string. Everything else is read as `JSONDecoder` reads it; keys the type does not know
    /// are ignored.
    /// - Parameter type: the app's destination type.
    /// - Returns: the app's destination value.
    /// - Throws: `DestinationError` with code `typeMismatch`, naming the coding path, when the type has no such case
    ///   or the payload does not fit it.
    public func decoded<D: Decodable>(as type: D.Type) throws(DestinationError) -> D {
        do {
            return try DestinationDecoder.decode(type, from: jsonValue)
        } catch {
            throw DestinationError(.typeMismatch, "\(canonicalJSON) is not a \(type): \(error.message)", cause: error.cause ?? error)
        }
    }
}
