import CrashtrailCore
import CrashtrailEncoding

/// A trail as it rides inside a payload, before decoding (SPEC section 7).
public enum TrailCarrier: Hashable, Sendable {
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

extension TrailCarrier {
    /// The dictionary ID the encoded trail names (`TrailCodec.recordedDictionaryID(_:)`); nil for trail JSON or a
    /// trail encoded without a manifest.
    public var recordedDictionaryID: String? {
        switch self {
        case .text(let text): TrailCodec.recordedDictionaryID(Array(text.utf8))
        case .bytes(let bytes): TrailCodec.recordedDictionaryID(bytes)
        case .keys(let keys): TrailCodec.recordedDictionaryID(CanonicalJSON.bytes(of: .object(keys.mapValues(JSONValue.string))))
        case .object: nil
        }
    }
}
