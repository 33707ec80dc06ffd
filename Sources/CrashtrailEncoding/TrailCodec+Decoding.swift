public import CrashtrailCore

extension TrailCodec {
    /// The form a payload was recognized as.
    public enum DetectedForm: String, Hashable, Sendable {
        case binary
        case text
        case keys
        case json
    }

    /// Decodes a trail in any form, detecting which: binary (by its magic bytes), `ct1:` text (surrounding
    /// whitespace ignored), a split-keys JSON object, or plain trail JSON.
    /// - Parameter bytes: the payload as read from a file or a crash report.
    /// - Returns: the trail; its canonical JSON is the one that was encoded.
    /// - Throws: `TrailCodecError` saying what was wrong; trail JSON problems come as `invalidTrail` with the
    ///   `TrailError` attached.
    public func decode(_ bytes: some Collection<UInt8>) throws(TrailCodecError) -> Trail {
        try decodeDetectingForm(Array(bytes)).decoded.trail
    }

    /// Decodes a trail in any form, as ``decode(_:)``, keeping the canonical JSON decoding built on the way.
    /// - Throws: `TrailCodecError`, as ``decode(_:)``.
    public func decodeKeepingJSON(_ bytes: some Collection<UInt8>) throws(TrailCodecError) -> DecodedTrail {
        try decodeDetectingForm(Array(bytes)).decoded
    }

    /// Decodes a `ct1:` text, as found in a JSON field or a crash reporter's custom value.
    /// - Throws: `TrailCodecError` (`invalidText`, `unsupportedVersion`, then any binary-form error).
    public func decode(text: String) throws(TrailCodecError) -> Trail {
        try decodeBinary(try TextForm.decode(text))
    }

    /// Decodes a `ct1:` text, as ``decode(text:)``, keeping the canonical JSON decoding built on the way.
    /// - Throws: `TrailCodecError`, as ``decode(text:)``.
    public func decodeKeepingJSON(text: String) throws(TrailCodecError) -> DecodedTrail {
        try decodeBinaryDetails(try TextForm.decode(text)).decoded
    }

    /// Decodes the split form from a crash report's custom keys.
    ///
    /// Keys not starting with `crashtrail.` are ignored.
    /// - Throws: `TrailCodecError` (`missingPart`, `repeatedPart`, `reorderedPart`, `foreignPart`,
    ///   `invalidPart`, then any binary-form error).
    public func decode(keys: [String: String]) throws(TrailCodecError) -> Trail {
        try decodeBinary(try SplitKeys.join(keys))
    }

    /// Decodes split keys, as ``decode(keys:)``, keeping the canonical JSON decoding built on the way.
    /// - Throws: `TrailCodecError`, as ``decode(keys:)``.
    public func decodeKeepingJSON(keys: [String: String]) throws(TrailCodecError) -> DecodedTrail {
        try decodeBinaryDetails(try SplitKeys.join(keys)).decoded
    }

    /// Decodes `bytes`, returning the form it was in and, for an encoded form, its binary bytes.
    func decodeDetectingForm(_ bytes: [UInt8]) throws(TrailCodecError) -> (decoded: DecodedTrail, form: DetectedForm, binary: [UInt8]?) {
        guard bytes.count <= limits.maximumInputSize else {
            throw TrailCodecError(
                .inputOverCap, "the input is \(bytes.count) bytes, over the \(limits.maximumInputSize)-byte cap")
        }
        if bytes.first == TrailHeader.magic[0] {
            return (try decodeBinaryDetails(bytes).decoded, .binary, bytes)
        }
        let firstSignificant = bytes.first { !Self.isWhitespace($0) }
        switch firstSignificant {
        case UInt8(ascii: "c"):
            guard let text = String(utf8Validating: bytes) else {
                throw TrailCodecError(.invalidText, "the input starts like ct1: text but is not valid UTF-8")
            }
            let binary = try TextForm.decode(text)
            return (try decodeBinaryDetails(binary).decoded, .text, binary)
        case UInt8(ascii: "{"):
            let value: JSONValue
            do {
                value = try JSONParser.parse(bytes, decimalKeys: Trail.decimalKeys)
            } catch {
                throw TrailCodecError(
                    .invalidTrail, "the input is not valid trail JSON: \(error.description)",
                    trailError: TrailError(.invalidJSON, at: "", error.description))
            }
            if let object = value.objectValue, object.keys.contains(where: { $0.hasPrefix(SplitKeys.keyPrefix) }) {
                var keys: [String: String] = [:]
                for (key, entry) in object where key.hasPrefix(SplitKeys.keyPrefix) {
                    guard let string = entry.stringValue else {
                        throw TrailCodecError(.invalidPart, "\(key) must be a string, found \(entry.kindName)")
                    }
                    keys[key] = string
                }
                let binary = try SplitKeys.join(keys)
                return (try decodeBinaryDetails(binary).decoded, .keys, binary)
            }
            if let steps = value["steps"], case .array(let array) = steps, array.count > limits.maximumSteps {
                throw Self.tooManySteps(array.count, limit: limits.maximumSteps)
            }
            do {
                return (DecodedTrail(try Trail(jsonValue: value)), .json, nil)
            } catch {
                throw TrailCodecError(.invalidTrail, "the input is not a valid trail: \(error.description)", trailError: error)
            }
        case nil:
            throw TrailCodecError(.unrecognizedForm, "the input is empty; expected a binary trail, ct1: text, split keys or trail JSON")
        default:
            if bytes.count >= 2, bytes[0] != TrailHeader.magic[0] || bytes[1] != TrailHeader.magic[1],
                !bytes.prefix(16).contains(where: { $0 < 0x09 })
            {
                throw TrailCodecError(
                    .unrecognizedForm, "the input is not a crashtrail trail: expected binary (C7 54…), ct1: text, split keys or trail JSON")
            }
            throw TrailCodecError(
                .wrongMagic, "not a crashtrail binary trail: it does not start with the magic bytes C7 54, nor is it ct1: text or JSON")
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Describes an encoded trail (or trail JSON): format version, form, dictionary, step count and sizes.
    /// - Parameter bytes: a payload in any form.
    /// - Returns: the inspection; for trail JSON, the sizes it would have as binary.
    /// - Throws: `TrailCodecError`, as ``decode(_:)``.
    package func inspect(_ bytes: some Collection<UInt8>) throws(TrailCodecError) -> TrailInspection {
        let input = Array(bytes)
        let (decoded, form, given) = try decodeDetectingForm(input)
        let trail = decoded.trail
        let binary: [UInt8]
        if let given { binary = given } else { binary = try encodeBinary(trail) }
        let details = try decodeBinaryDetails(binary)
        let json = decoded.canonicalJSON
        return TrailInspection(
            formatVersion: Int(details.header.version), form: form, dictionaryID: details.header.dictionaryID.map(ManifestDictionary.hex),
            dictionaryApp: details.dictionary?.manifest.app, dictionarySource: details.dictionary?.manifest.source,
            app: trail.app.bundleID, stepCount: trail.steps.count, inputSize: input.count, binarySize: binary.count,
            textLength: TextForm.prefix.utf8.count + (binary.count * 4 + 2) / 3, bodySize: details.bodySize,
            jsonSize: json.count)
    }
}

extension TrailCodec {
    /// The dictionary ID an encoded trail's header names (the manifest it was encoded with), read from the header
    /// alone, without the manifest: binary, `ct1:` text or split keys.
    ///
    /// Nil for trail JSON, a trail encoded without a manifest, or bytes that are no encoded trail.
    public static func recordedDictionaryID(_ bytes: [UInt8]) -> String? {
        var binary = bytes
        let first = bytes.first { !isWhitespace($0) }
        if first == UInt8(ascii: "c") {
            guard let text = String(utf8Validating: bytes), let decoded = try? TextForm.decode(text) else { return nil }
            binary = decoded
        } else if first == UInt8(ascii: "{") {
            guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return nil }
            var keys: [String: String] = [:]
            for (key, entry) in object where key.hasPrefix(SplitKeys.keyPrefix) { keys[key] = entry.stringValue }
            guard !keys.isEmpty, let joined = try? SplitKeys.join(keys) else { return nil }
            binary = joined
        }
        guard binary.first == TrailHeader.magic[0], let (header, _) = try? TrailHeader.read(binary) else { return nil }
        return header.dictionaryID.map(ManifestDictionary.hex)
    }
}
