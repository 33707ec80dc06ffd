import CrashtrailCore
import CrashtrailEncoding

/// The collector decodes embedded and separate trails with the codec of CrashtrailEncoding.
extension TrailCodec: TrailDecoding {
    public func decodeTrail(bytes: [UInt8]) throws -> Trail {
        try decode(bytes)
    }

    public func decodeTrail(text: String) throws -> Trail {
        try decode(text: text)
    }

    public func decodeTrail(keys: [String: String]) throws -> Trail {
        try decode(keys: keys)
    }
}
