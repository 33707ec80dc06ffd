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
        let digest = SHA256.hash(data: Array(signature.utf8))
        var hex = ""
        hex.reserveCapacity(idLength)
        for byte in digest.prefix(idLength / 2) {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return hex
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")
}
