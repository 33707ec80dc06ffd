import CrashtrailCore
import CrashtrailEncoding

/// The form `trail encode` and `journal recover` write a trail in.
package enum TrailOutputForm: String, CaseIterable, Sendable {
    /// The trail's canonical JSON (SPEC section 5).
    case json
    /// `ct1:` text, for JSON fields and custom keys.
    case ct1
    /// A JSON object of split keys `{"crashtrail.0": …}`, each value within the key limit.
    case keys
    /// The binary form, for attachments and files.
    case binary

    /// The form a command-line value names; `text` is the old name of `ct1`.
    package init?(name: String) {
        self.init(rawValue: name == "text" ? "ct1" : name)
    }

    /// The bytes to write: `trail` in this form, ending in a newline unless binary.
    /// - Parameters:
    ///   - trail: the trail.
    ///   - codec: the codec, with the manifests that make the encoded forms smaller.
    ///   - keyLimit: the most characters a split key's value may have.
    /// - Returns: the bytes to write.
    /// - Throws: `TrailCodecError` when the trail cannot be encoded.
    package func bytes(of trail: Trail, codec: TrailCodec, keyLimit: Int = 1024) throws(TrailCodecError) -> [UInt8] {
        let newline = [UInt8(ascii: "\n")]
        switch self {
        case .json: return trail.canonicalJSON + newline
        case .ct1: return try codec.encode(trail, as: .text) + newline
        case .keys: return try codec.encode(trail, as: .keys(limit: keyLimit)) + newline
        case .binary: return try codec.encode(trail, as: .binary)
        }
    }
}
