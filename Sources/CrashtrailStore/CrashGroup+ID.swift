import CrashtrailCore
import Crypto

extension CrashGroup {
    /// How many hex digits a group ID has (SPEC section 13).
    package static let idLength = 12

    /// The group's ID: the first 12 lower-case hex digits of the SHA-256 of its signature's UTF-8 bytes
    /// (SPEC section 13).
    ///
    /// It depends on the signature alone, so the same group has the same ID in every store.
    public var id: String { Self.id(ofSignature: signature) }

    /// The ID of the group with this signature.
    public static func id(ofSignature signature: String) -> String {
        Hex.lowercase(SHA256.hash(data: Array(signature.utf8)).prefix(idLength / 2))
    }
}
