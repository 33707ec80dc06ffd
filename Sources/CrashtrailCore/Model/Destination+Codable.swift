internal import Foundation

extension Destination {
    /// The generic form of an app's own destination value, as its synthesized `Codable` writes it.
    ///
    /// ```swift
    /// enum AppDestination: Codable { case item(id: LootID) }
    /// try Destination(encoding: AppDestination.item(id: LootID("L-42")))  // {"item":{"id":{"rawValue":"L-42"}}}
    /// ```
    /// - Throws: `DestinationError` when the value is not an enum case with an object payload, or holds a
    ///   fractional number.
    public init(encoding value: some Encodable) throws(DestinationError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw DestinationError(.unencodable, "the value does not encode as JSON: \(error)", cause: error)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(data))
        } catch {
            throw DestinationError(.unencodable, "the value's JSON is not a destination: \(error.message)", cause: error)
        }
        try self.init(jsonValue: json)
    }

    /// Decodes this destination as an app's own `Decodable` destination type.
    /// - Throws: `DestinationError` when the type has no such case or the payload does not fit it.
    public func decoded<D: Decodable>(as type: D.Type) throws(DestinationError) -> D {
        do {
            return try JSONDecoder().decode(type, from: Data(CanonicalJSON.bytes(of: jsonValue)))
        } catch {
            throw DestinationError(.typeMismatch, "\(canonicalJSON) is not a \(type): \(error)", cause: error)
        }
    }
}
