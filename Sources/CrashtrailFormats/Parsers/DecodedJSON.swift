import CrashtrailCore
import Foundation

/// A `JSONValue` read through `Decodable`, for the small parts of a payload kept whole (an embedded trail).
///
/// Fractions are refused, as the trail format refuses them.
struct DecodedJSON: Decodable, Sendable {
    var value: JSONValue

    init(from decoder: any Decoder) throws {
        if let skimming = decoder as? SkimmingDecoderImpl, let scalar = try Self.scalar(skimming) {
            value = scalar
            return
        }
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object: [String: JSONValue] = [:]
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(DecodedJSON.self, forKey: key).value
            }
            value = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !container.isAtEnd { array.append(try container.decode(DecodedJSON.self).value) }
            value = .array(array)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            value = .int(int)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a fraction or an integer beyond 64 bits, which trails refuse")
        }
    }

    /// A scalar read from a `SkimmingDecoder`'s document by its kind (what the probing above ends with), or nil
    /// for an array or object.
    /// - Throws: `DecodingError.dataCorrupted` for a fraction or an integer beyond 64 bits, as above.
    private static func scalar(_ decoder: SkimmingDecoderImpl) throws -> JSONValue? {
        let document = decoder.document
        let position = decoder.currentPosition
        switch document.kind(of: position) {
        case .object, .array:
            return nil
        case .null:
            return .null
        case .bool:
            return (try? document.bool(at: position)).map(JSONValue.bool)
        case .number:
            if let int = try? document.integer(Int64.self, at: position) { return .int(int) }
        case .string:
            if let string = try? document.string(at: position) { return .string(string) }
        }
        throw DecodingError.dataCorruptedError(
            in: try decoder.singleValueContainer(), debugDescription: "a fraction or an integer beyond 64 bits, which trails refuse")
    }
}
