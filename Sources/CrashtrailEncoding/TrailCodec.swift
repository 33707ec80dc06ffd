public import CrashtrailCore

/// Encodes trails into crashtrail's compact forms and decodes any form back, losslessly: decoding gives the
/// canonical JSON of the trail that was encoded, byte for byte.
///
/// ```swift
/// let codec = TrailCodec(manifests: [manifest])
/// let text = try codec.encode(trail, as: .text)       // "ct1:x1QC…"
/// let same = try codec.decode(text)                   // detects binary, ct1: text, split keys or trail JSON
/// ```
///
/// Given manifests, the encoder uses the one whose `app` is the trail's bundle ID as a dictionary, and the
/// decoder picks the one the header names. Hostile input is refused with a ``TrailCodecError`` and never
/// inflates past ``Limits/maximumInflatedSize``.
public struct TrailCodec: Sendable {
    /// Bounds on what decoding accepts.
    public struct Limits: Hashable, Sendable {
        /// The most bytes a body may inflate to (16 MiB by default); more is refused.
        public var maximumInflatedSize: Int
        /// The most bytes an encoded input may have before decoding (16 MiB by default).
        public var maximumInputSize: Int
        /// The most steps a decoded trail may have (200,000 by default, 400 times what a recorder keeps by default).
        ///
        /// A few kilobytes of deflate can hold millions of steps, so the count is checked before any step is
        /// built.
        public var maximumSteps: Int

        /// Limits for decoding.
        /// - Parameters:
        ///   - maximumInflatedSize: the most bytes a body may inflate to.
        ///   - maximumInputSize: the most bytes of encoded input.
        ///   - maximumSteps: the most steps a trail may have.
        public init(maximumInflatedSize: Int = 16 << 20, maximumInputSize: Int = 16 << 20, maximumSteps: Int = 200_000) {
            self.maximumInflatedSize = maximumInflatedSize
            self.maximumInputSize = maximumInputSize
            self.maximumSteps = maximumSteps
        }
    }

    /// The dictionaries of the manifests the codec was given, in order.
    package let dictionaries: [ManifestDictionary]
    /// The bounds decoding enforces.
    public let limits: Limits

    /// A codec that knows `manifests`.
    /// - Parameters:
    ///   - manifests: the manifests trails may need; the encoder picks by bundle ID, the decoder by dictionary id.
    ///   - limits: bounds on decoding.
    public init(manifests: [Manifest] = [], limits: TrailCodec.Limits = .init()) {
        dictionaries = manifests.map(ManifestDictionary.init(manifest:))
        self.limits = limits
    }

    /// The dictionary the encoder uses for `trail`: the first manifest whose `app` is its bundle ID.
    package func dictionary(for trail: Trail) -> ManifestDictionary? {
        dictionaries.first { $0.manifest.app.utf8.elementsEqual(trail.app.bundleID.utf8) }
    }

    /// Encodes `trail` in `form`.
    /// - Parameters:
    ///   - trail: a valid trail (times never decreasing, version 1).
    ///   - form: binary bytes, the `ct1:` text's UTF-8, or the canonical JSON object of the split keys.
    /// - Returns: the encoded bytes.
    /// - Throws: `TrailCodecError` with code `invalidTrail` for a trail the format cannot hold, or
    ///   `keyLimitTooSmall` for a key limit that cannot fit a part.
    public func encode(_ trail: Trail, as form: TrailForm) throws(TrailCodecError) -> [UInt8] {
        let binary = try encodeBinary(trail)
        switch form {
        case .binary: return binary
        case .text: return Array(TextForm.encode(binary).utf8)
        case .keys(let limit):
            let parts = try SplitKeys.split(binary, limit: limit)
            return CanonicalJSON.bytes(of: .object(parts.mapValues { .string($0) }))
        }
    }

    /// The `ct1:` text of `trail`.
    /// - Throws: `TrailCodecError` (`invalidTrail`) for a trail the format cannot hold.
    public func encodeText(_ trail: Trail) throws(TrailCodecError) -> String {
        TextForm.encode(try encodeBinary(trail))
    }

    /// The `ct1:` text of an already encoded binary form.
    public static func text(ofBinary binary: [UInt8]) -> String {
        TextForm.encode(binary)
    }

    /// The split keys of an already encoded binary form, each value at most `limit` characters.
    /// - Throws: `TrailCodecError` (`keyLimitTooSmall`).
    public static func keys(ofBinary binary: [UInt8], limit: Int = 1024) throws(TrailCodecError) -> [String: String] {
        try SplitKeys.split(binary, limit: limit)
    }

    /// The split keys of `trail`, `crashtrail.0` … `crashtrail.N`, each value at most `limit` characters.
    /// - Throws: `TrailCodecError` (`invalidTrail`, `keyLimitTooSmall`).
    public func encodeKeys(_ trail: Trail, limit: Int = 1024) throws(TrailCodecError) -> [String: String] {
        try SplitKeys.split(try encodeBinary(trail), limit: limit)
    }

    /// The binary form of `trail`.
    /// - Throws: `TrailCodecError` (`invalidTrail`) for a trail the format cannot hold.
    public func encodeBinary(_ trail: Trail) throws(TrailCodecError) -> [UInt8] {
        try encodeBinary(trail, formatVersion: TrailHeader.currentVersion)
    }

    /// The binary form of `trail` in `formatVersion`: 2, or 1 for tests that read what older builds wrote.
    func encodeBinary(_ trail: Trail, formatVersion: UInt8) throws(TrailCodecError) -> [UInt8] {
        guard trail.version == Trail.currentVersion else {
            throw TrailCodecError(
                .invalidTrail, "trail version \(trail.version) cannot be encoded; this build writes version \(Trail.currentVersion)")
        }
        guard trail.dropped >= 0 else { throw TrailCodecError(.invalidTrail, "dropped is \(trail.dropped); it must not be negative") }
        do {
            try trail.validateTimes()
        } catch {
            throw TrailCodecError(.invalidTrail, "the trail cannot be encoded: \(error.description)", trailError: error)
        }
        let dictionary = dictionary(for: trail)
        // Version 3 is version 2 with how the session ended: written only for a trail that says so, so every other
        // trail keeps the bytes it had.
        let formatVersion = formatVersion >= 2 && trail.session.ended != nil ? TrailHeader.endedVersion : formatVersion
        var encoder = TrailBodyEncoder(dictionary: dictionary, formatVersion: formatVersion)
        let body = encoder.encode(trail)
        // Version 2 deflates the structure and stores the raw column after the stream: its bytes are close to
        // random, and deflate would only add to them. A long raw column (hundreds of steps) can have patterns,
        // so there both ways are tried. Version 1 deflated both, in one body.
        let layouts =
            formatVersion == 1
            ? [body.version1] : [body.rawAfterStream] + (Self.rawColumnMayDeflate(body.raw) ? [body.rawInside] : [])
        func compress(_ layout: TrailBodyEncoder.Body.Layout) throws(TrailCodecError) -> [UInt8] {
            do {
                return try RawDeflate.smallestDeflate(
                    layout.deflated, dictionary: dictionary?.presetDictionary ?? [], blockEnds: layout.blockEnds)
            } catch {
                throw TrailCodecError(.zlibFailure, "zlib could not compress the trail (\(error)); the machine may be out of memory")
            }
        }
        var best = layouts[0]
        var bestCompressed = try compress(best)
        for layout in layouts.dropFirst() {
            let compressed = try compress(layout)
            if compressed.count + layout.after.count < bestCompressed.count + best.after.count {
                (best, bestCompressed) = (layout, compressed)
            }
        }
        var out = ByteWriter(capacity: bestCompressed.count + best.after.count + 16)
        TrailHeader(
            version: formatVersion, dictionaryID: dictionary?.id, bodyLength: best.deflated.count,
            checksum: RawDeflate.crc32(trail.canonicalJSON)
        ).write(into: &out)
        out.append(bestCompressed)
        out.append(best.after)
        return out.bytes
    }

    /// Whether deflating a raw column might make it smaller, so that the encoder tries it: when its bytes' entropy
    /// (order 0, as Huffman codes see them) leaves room for a code table of about 64 bytes.
    ///
    /// Realistic trails' raw bytes are near random and skip the second deflate; hundreds of steps at a fixed interval
    /// do not.
    static func rawColumnMayDeflate(_ raw: [UInt8]) -> Bool {
        guard raw.count >= 128 else { return false }
        var counts = [Int](repeating: 0, count: 256)
        for byte in raw { counts[Int(byte)] += 1 }
        // log2 of x ≥ 1 to within 0.09, from the binary exponent and a linear significand: close enough to choose.
        func log2(_ x: Double) -> Double { Double(x.exponent) + (x.significand - 1) }
        let total = Double(raw.count)
        var bits = 0.0
        for count in counts where count > 0 {
            bits += Double(count) * log2(total / Double(count))
        }
        return bits / 8 + 64 < total
    }

    /// Decodes the binary form.
    /// - Throws: `TrailCodecError`: `wrongMagic`, `unsupportedVersion`, `invalidHeader`, `truncated`,
    ///   `declaredSizeOverCap`, `inflatedSizeOverCap`, `missingDictionary`, `corruptBody` or `badChecksum`.
    public func decodeBinary(_ bytes: some Collection<UInt8>) throws(TrailCodecError) -> Trail {
        try decodeBinaryDetails(Array(bytes)).decoded.trail
    }

    /// What decoding the binary form found, for ``inspect(_:)``.
    struct BinaryDetails {
        /// The trail and the canonical JSON its checksum matched.
        var decoded: DecodedTrail
        var header: TrailHeader
        var dictionary: ManifestDictionary?
        /// The body's bytes before compression: the inflated stream, and in version 2 the raw column after it.
        var bodySize: Int
    }

    func decodeBinaryDetails(_ bytes: [UInt8]) throws(TrailCodecError) -> BinaryDetails {
        guard bytes.count <= limits.maximumInputSize else {
            throw TrailCodecError(
                .inputOverCap,
                "the encoded trail is \(bytes.count) bytes, over the \(limits.maximumInputSize)-byte cap; raise the cap only for trusted input"
            )
        }
        let header: TrailHeader
        let bodyStart: Int
        do {
            (header, bodyStart) = try TrailHeader.read(bytes)
        } catch {
            throw Self.headerError(error)
        }
        guard header.bodyLength <= limits.maximumInflatedSize else {
            throw TrailCodecError(
                .declaredSizeOverCap,
                "the header declares a body of \(header.bodyLength) bytes, over the \(limits.maximumInflatedSize)-byte cap; refusing to inflate it"
            )
        }
        var dictionary: ManifestDictionary?
        if let id = header.dictionaryID {
            dictionary = dictionaries.first { $0.id == id }
            if dictionary == nil {
                let given =
                    dictionaries.isEmpty
                    ? "no manifest was given"
                    : "the given manifests have ids "
                        + dictionaries.map { "\($0.idString) (\($0.manifest.app), \($0.manifest.source))" }.joined(separator: ", ")
                throw TrailCodecError(
                    .missingDictionary,
                    "the trail was encoded with the manifest whose dictionary id is \(ManifestDictionary.hex(id)), but \(given); pass that manifest with --manifest (crashtrail manifest check M prints a manifest's dictionary ID)"
                )
            }
        }
        let body: [UInt8]
        let consumed: Int
        do throws(RawDeflate.StreamError) {
            // Version 1's stream is the whole rest; version 2's is followed by the raw column.
            (body, consumed) = try RawDeflate.inflatePrefix(
                Array(bytes[bodyStart...]), dictionary: dictionary?.presetDictionary ?? [], cap: limits.maximumInflatedSize)
            if header.version == 1, bodyStart + consumed < bytes.count {
                throw RawDeflate.StreamError.trailingBytes(bytes.count - bodyStart - consumed)
            }
        } catch {
            throw Self.inflateError(error, cap: limits.maximumInflatedSize)
        }
        guard body.count == header.bodyLength else {
            throw TrailCodecError(
                .corruptBody, "the body inflates to \(body.count) bytes but the header declares \(header.bodyLength)")
        }
        var decoder =
            header.version == 1
            ? TrailBodyDecoder(version1Body: body, dictionary: dictionary, maximumSteps: limits.maximumSteps)
            : TrailBodyDecoder(
                structure: body, raw: Array(bytes[(bodyStart + consumed)...]), dictionary: dictionary,
                maximumSteps: limits.maximumSteps, formatVersion: header.version)
        var decoded: DecodedTrail
        do {
            decoded = try decoder.decode()
        } catch {
            switch error {
            case .truncated(let what), .invalid(let what):
                throw TrailCodecError(.corruptBody, "the trail's body is corrupt: \(what)")
            case .inputEnds(let what):
                throw TrailCodecError(.truncated, "the binary trail is truncated: \(what)")
            case .tooManySteps(let count, let limit):
                throw Self.tooManySteps(count, limit: limit)
            }
        }
        // The decoded trail must be one the JSON form accepts (states in range, no empty stacks…).
        // The body's grammar already makes every step well formed, times never decreasing and `dropped` not
        // negative; the states are what remains to check against the JSON form's rules.
        let trail = decoded.trail
        for (state, path) in [(trail.base, "base"), (trail.final, "final")] {
            guard let state else { continue }
            do {
                try state.validate(path: path)
            } catch {
                throw TrailCodecError(.corruptBody, "the trail's body decodes to an invalid trail: \(error.description)", trailError: error)
            }
        }
        // The decoder wrote the canonical JSON from the body's codes, once per table destination.
        let checksum = RawDeflate.crc32(decoded.canonicalJSON)
        guard checksum == header.checksum else {
            throw TrailCodecError(
                .badChecksum,
                "the decoded trail's CRC-32 is \(ManifestDictionary.hex(checksum)) but the header says \(ManifestDictionary.hex(header.checksum)); the data was changed after it was encoded"
            )
        }
        decoded.dictionaryID = header.dictionaryID.map(ManifestDictionary.hex)
        return BinaryDetails(
            decoded: decoded, header: header, dictionary: dictionary, bodySize: bytes.count - bodyStart - consumed + body.count)
    }

    static func tooManySteps(_ count: Int, limit: Int) -> TrailCodecError {
        TrailCodecError(
            .tooManySteps,
            "the trail holds \(count) steps, over the limit of \(limit) steps; refusing to build it (raise TrailCodec.Limits.maximumSteps only for trusted input)"
        )
    }

    private static func headerError(_ failure: TrailHeader.HeaderError) -> TrailCodecError {
        switch failure {
        case .wrongMagic:
            return TrailCodecError(.wrongMagic, "not a crashtrail binary trail: it does not start with the magic bytes C7 54")
        case .truncated(let what):
            return TrailCodecError(.truncated, "the binary trail is truncated: \(what)")
        case .unsupportedVersion(let version):
            return TrailCodecError(
                .unsupportedVersion,
                "binary trail format version \(version) is not supported; this build reads versions \(TrailHeader.readableVersions.lowerBound) to \(TrailHeader.readableVersions.upperBound). Decode it with a newer crashtrail"
            )
        case .unknownFlags(let flags):
            return TrailCodecError(
                .invalidHeader, "the header flags 0x\(String(flags, radix: 16)) include bits this build does not know")
        case .invalid(let what):
            return TrailCodecError(.invalidHeader, "the binary trail's header is invalid: \(what)")
        }
    }

    private static func inflateError(_ failure: RawDeflate.StreamError, cap: Int) -> TrailCodecError {
        switch failure {
        case .truncated:
            return TrailCodecError(.truncated, "the binary trail is truncated: the deflate stream ends early")
        case .overCap:
            return TrailCodecError(
                .inflatedSizeOverCap,
                "the body inflates past the \(cap)-byte cap (a deflate bomb, or a trail too large); inflating stopped at the cap")
        case .corrupt(let message):
            return TrailCodecError(.corruptBody, "the trail's deflate stream is corrupt: \(message)")
        case .trailingBytes(let count):
            return TrailCodecError(.corruptBody, "\(count) bytes follow the end of the deflate stream")
        case .zlib(let message):
            return TrailCodecError(.zlibFailure, "zlib failed: \(message)")
        }
    }
}
