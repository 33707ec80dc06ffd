import CrashtrailCore

/// A trail as it rides inside a payload, before decoding (SPEC section 7).
package enum TrailCarrier: Hashable, Sendable {
    /// `ct1:` text.
    case text(String)
    /// Split keys `crashtrail.0…N` with their values.
    case keys([String: String])
    /// Bytes of a binary trail or of trail JSON (an envelope attachment, a trail file).
    case bytes([UInt8])
    /// A trail object embedded as JSON.
    case object(JSONValue)
}

extension TrailCarrier {
    /// The carrier for a trail field's JSON value: `ct1:` text, a split-keys object, or a trail object; nil for
    /// null.
    static func from(jsonValue value: JSONValue) -> TrailCarrier? {
        switch value {
        case .null: return nil
        case .string(let text): return .text(text)
        case .object(let object) where object.keys.contains(where: { $0.hasPrefix("crashtrail.") }):
            return .keys(object.compactMapValues(\.stringValue))
        default: return .object(value)
        }
    }
}
