/// The forms an encoded trail takes (SPEC section 6).
public enum TrailForm: Hashable, Sendable {
    /// The binary form: header and raw deflate body.
    case binary
    /// `ct1:` followed by the binary form in base64url without padding.
    case text
    /// A JSON object `{"crashtrail.0": "…", …}` for key/value stores, each value at most `limit` characters.
    case keys(limit: Int = 1024)

    /// The form's name as the CLI and `inspect` write it.
    public var name: String {
        switch self {
        case .binary: "binary"
        case .text: "text"
        case .keys: "keys"
        }
    }
}
