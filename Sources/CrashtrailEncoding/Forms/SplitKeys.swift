/// The split form for key/value stores (docs/ENCODING.md, "Split keys").
///
/// The base64url of the binary form is cut into values `ct1.<index>.<count>.<id>:<chunk>` under keys `crashtrail.<index>`, where `id` is the CRC-32 of
/// the binary form in hex. Each part names its place, how many parts there are and which trail it belongs to,
/// so reassembly refuses missing, repeated, reordered and foreign parts.
enum SplitKeys {
    static let keyPrefix = "crashtrail."
    static let valuePrefix = "ct1."
    /// A part needs room for its header and at least this many characters of data.
    static let minimumChunk = 4

    /// The parts of `binary`, each value at most `limit` characters.
    /// - Throws: `TrailCodecError` (`keyLimitTooSmall`) when a value cannot hold a header and data.
    static func split(_ binary: [UInt8], limit: Int) throws(TrailCodecError) -> [String: String] {
        let text = Array(Base64URL.encode(binary).utf8)
        let id = ManifestDictionary.hex(RawDeflate.crc32(binary))
        var count = 1
        while true {
            let chunk = limit - header(index: count - 1, count: count, id: id).utf8.count
            guard chunk >= minimumChunk else {
                throw TrailCodecError(
                    .keyLimitTooSmall,
                    "a key limit of \(limit) characters cannot hold a part's \(limit - max(chunk, 0))-character header and data; use a limit of at least 32"
                )
            }
            if count * chunk >= text.count {
                count = max(1, (text.count + chunk - 1) / chunk)
                var parts: [String: String] = [:]
                for index in 0..<count {
                    let slice = text[(index * chunk)..<min(text.count, (index + 1) * chunk)]
                    parts[keyPrefix + String(index)] = header(index: index, count: count, id: id) + String(decoding: slice, as: UTF8.self)
                }
                return parts
            }
            count += 1
        }
    }

    private static func header(index: Int, count: Int, id: String) -> String {
        "\(valuePrefix)\(index).\(count).\(id):"
    }

    /// One parsed part.
    private struct Part {
        let key: String
        let keyIndex: Int
        let index: Int
        let count: Int
        let id: String
        let chunk: Substring
    }

    /// The binary form the parts hold.
    ///
    /// Keys that do not start with `crashtrail.` are ignored (a crash report's custom keys hold other values too), and
    /// so are keys whose value is empty: reporters cannot delete a custom key, so a recorder's sink clears the parts a
    /// shorter trail no longer uses by setting them to "".
    /// - Throws: `TrailCodecError`: `invalidPart`, `foreignPart`, `repeatedPart`, `reorderedPart`, `missingPart`,
    ///   `invalidText` (a chunk that is not base64url) or `unsupportedVersion`.
    static func join(_ keys: [String: String]) throws(TrailCodecError) -> [UInt8] {
        var parts: [Part] = []
        for (key, value) in keys where key.hasPrefix(keyPrefix) && !value.isEmpty {
            parts.append(try parse(key: key, value: value))
        }
        guard !parts.isEmpty else {
            throw TrailCodecError(.missingPart, "no \(keyPrefix)N keys were found; the trail's parts are all missing")
        }
        parts.sort { $0.keyIndex < $1.keyIndex }
        guard let reference = parts.first(where: { $0.keyIndex == 0 }) else {
            throw TrailCodecError(.missingPart, "part \(keyPrefix)0 is missing; it is needed to know which trail the parts belong to")
        }
        for part in parts where part.id != reference.id || part.count != reference.count {
            throw TrailCodecError(
                .foreignPart,
                "\(part.key) belongs to another encoded trail (id \(part.id), \(part.count) parts) than \(reference.key) (id \(reference.id), \(reference.count) parts)"
            )
        }
        var seen: [Int: String] = [:]
        for part in parts {
            if let other = seen[part.index] {
                throw TrailCodecError(.repeatedPart, "\(other) and \(part.key) both hold part \(part.index) of \(reference.count)")
            }
            seen[part.index] = part.key
        }
        for part in parts where part.index != part.keyIndex {
            throw TrailCodecError(
                .reorderedPart, "\(part.key) holds part \(part.index) of \(reference.count); the parts were reordered")
        }
        let missing = (0..<reference.count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.prefix(5).map { keyPrefix + String($0) }.joined(separator: ", ")
            throw TrailCodecError(
                .missingPart, "\(missing.count) of \(reference.count) parts are missing: \(names)\(missing.count > 5 ? ", …" : "")")
        }
        let text = parts.map(\.chunk).joined()
        let binary: [UInt8]
        do {
            binary = try TextForm.decode(TextForm.prefix + text)
        } catch {
            throw TrailCodecError(.invalidPart, "the parts' data is not valid: \(error.message)")
        }
        let id = ManifestDictionary.hex(RawDeflate.crc32(binary))
        guard id == reference.id else {
            throw TrailCodecError(
                .foreignPart,
                "the reassembled parts have CRC-32 \(id) but claim \(reference.id); a part was altered or comes from another trail")
        }
        return binary
    }

    private static func parse(key: String, value: String) throws(TrailCodecError) -> Part {
        let suffix = key.dropFirst(keyPrefix.count)
        guard let keyIndex = decimal(suffix) else {
            throw TrailCodecError(.invalidPart, "\(key) is not a part key; they are named \(keyPrefix)0, \(keyPrefix)1, …")
        }
        let trimmed = value.trimmingWhitespace()
        guard trimmed.hasPrefix(valuePrefix) else {
            if trimmed.hasPrefix("ct"), let dot = trimmed.firstIndex(of: "."),
                trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<dot].allSatisfy(\.isNumber)
            {
                throw TrailCodecError(
                    .unsupportedVersion, "\(key) is a part of split form \"\(trimmed[..<dot])\"; this build reads \"ct1\"")
            }
            throw TrailCodecError(.invalidPart, "\(key) does not hold a crashtrail part (ct1.<index>.<count>.<id>:<data>)")
        }
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw TrailCodecError(.invalidPart, "\(key) has no \":\" after its part header")
        }
        let fields = trimmed[trimmed.index(trimmed.startIndex, offsetBy: valuePrefix.count)..<colon]
            .split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 3, let index = decimal(fields[0]), let count = decimal(fields[1]), count > 0, index < count,
            fields[2].utf8.count == 8, fields[2].allSatisfy(\.isHexDigit)
        else {
            throw TrailCodecError(
                .invalidPart, "\(key) has a malformed part header \"\(trimmed[...colon])\"; expected ct1.<index>.<count>.<8 hex digits>:")
        }
        return Part(
            key: key, keyIndex: keyIndex, index: index, count: count, id: String(fields[2]),
            chunk: trimmed[trimmed.index(after: colon)...])
    }

    /// A plain decimal without sign or leading zeros, below a million.
    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int(text)
    }
}
