/// The `ct1:` text form: the binary form in base64url without padding, for JSON fields and custom keys.
enum TextForm {
    static let prefix = "ct1:"

    static func encode(_ binary: [UInt8]) -> String {
        prefix + Base64URL.encode(binary)
    }

    /// The binary bytes of a `ct1:` text; leading and trailing whitespace is ignored.
    /// - Throws: `TrailCodecError`: `unsupportedVersion` for `ctN:` with another N, `invalidText` otherwise.
    static func decode(_ text: some StringProtocol) throws(TrailCodecError) -> [UInt8] {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix(prefix) else {
            if let colon = trimmed.firstIndex(of: ":"), trimmed.hasPrefix("ct"),
                trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon].allSatisfy(\.isNumber),
                trimmed.distance(from: trimmed.startIndex, to: colon) > 2
            {
                throw TrailCodecError(
                    .unsupportedVersion,
                    "text form \"\(trimmed[...colon])\" is not supported; this build reads \"\(prefix)\". Decode it with a newer crashtrail"
                )
            }
            throw TrailCodecError(.invalidText, "not a crashtrail text trail: it does not start with \"\(prefix)\"")
        }
        do {
            return try Base64URL.decode(trimmed.dropFirst(prefix.count))
        } catch {
            switch error {
            case .invalidCharacter(let character, let offset):
                throw TrailCodecError(
                    .invalidText,
                    "the ct1: text is not base64url: \"\(character)\" at character \(offset + prefix.count) (only A-Z a-z 0-9 - _, no padding)"
                )
            case .impossibleLength(let length):
                throw TrailCodecError(
                    .invalidText, "the ct1: text has \(length) base64url characters, a length no data encodes to; it was probably cut")
            case .nonZeroPadding:
                throw TrailCodecError(.invalidText, "the ct1: text's last character has stray bits; it was probably cut or altered")
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> Substring {
        let characters = Substring(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return characters[characters.endIndex...] }
        return characters[first...last]
    }
}
