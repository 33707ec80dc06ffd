package import CrashtrailCore

/// What `trail inspect` shows about an encoded trail.
package struct TrailInspection: Hashable, Sendable {
    /// The binary format version.
    package var formatVersion: Int
    /// The form the input was in.
    package var form: TrailCodec.DetectedForm
    /// The dictionary id the header names, as eight hex digits, nil when none.
    package var dictionaryID: String?
    /// The `app` of the manifest whose dictionary the body uses.
    package var dictionaryApp: String?
    /// Where that manifest was loaded from.
    package var dictionarySource: String?
    /// The trail's bundle ID.
    package var app: String
    /// The number of steps the trail keeps.
    package var stepCount: Int
    /// Bytes of the input as given.
    package var inputSize: Int
    /// Bytes of the binary form.
    package var binarySize: Int
    /// Characters of the `ct1:` text form.
    package var textLength: Int
    /// Bytes of the body before compression (the inflated stream, and the raw column that follows it).
    package var bodySize: Int
    /// Bytes of the trail's canonical JSON.
    package var jsonSize: Int

    /// The binary size as a fraction of the canonical JSON's.
    package var ratio: Double { jsonSize == 0 ? 0 : Double(binarySize) / Double(jsonSize) }

    /// Binary bytes per step (the whole binary form over the step count).
    package var bytesPerStep: Double { stepCount == 0 ? Double(binarySize) : Double(binarySize) / Double(stepCount) }

    /// The canonical JSON form of the inspection; `ratio` as a decimal string with four places.
    package var jsonValue: JSONValue {
        .object([
            "formatVersion": .int(Int64(formatVersion)),
            "form": .string(form.rawValue),
            "dictionary": dictionaryID.map { id in
                .object([
                    "id": .string(id), "app": dictionaryApp.map { .string($0) } ?? .null,
                    "source": dictionarySource.map { .string($0) } ?? .null,
                ])
            } ?? .null,
            "app": .string(app),
            "steps": .int(Int64(stepCount)),
            "inputBytes": .int(Int64(inputSize)),
            "binaryBytes": .int(Int64(binarySize)),
            "textCharacters": .int(Int64(textLength)),
            "bodyBytes": .int(Int64(bodySize)),
            "jsonBytes": .int(Int64(jsonSize)),
            "ratio": .string(Self.decimal(ratio, places: 4)),
        ])
    }

    /// `value` with `places` decimals, without locale.
    /// - Parameters:
    ///   - value: a non-negative number.
    ///   - places: how many decimals.
    /// - Returns: the text, such as `0.0871`.
    package static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
