import CrashtrailCore
import CrashtrailEncoding

/// The collector decodes embedded and separate trails with the codec of CrashtrailEncoding.
extension TrailCodec: TrailDecoding {
    public func decodeTrail(bytes: [UInt8]) throws -> DecodedTrail {
        try decodeKeepingJSON(bytes)
    }

    public func decodeTrail(text: String) throws -> DecodedTrail {
        try decodeKeepingJSON(text: text)
    }

    public func decodeTrail(keys: [String: String]) throws -> DecodedTrail {
        try decodeKeepingJSON(keys: keys)
    }
}
