import CrashtrailCore

/// Reads a body that ``TrailBodyEncoder`` wrote, refusing anything it would not write.
///
/// Every count is checked against the bytes that remain and nesting is bounded, so hostile bodies fail fast and in
/// bounded memory. The reading is split by part of the body: the fields before the steps (`+Head`, where the format
/// versions differ), the steps (`+Steps`), the destinations and payload values they spell (`+Destinations`), states
/// written in full (`+State`), the raw column (`+RawColumn`), the replayed final state (``FinalReplay``) and the
/// canonical JSON written from the step codes (`+JSON`).
struct TrailBodyDecoder {
    typealias ReadError = ByteReader.ReadError

    /// Payload values nest at most this deep, as the JSON parser allows.
    static let maximumDepth = JSONParser.defaultMaximumDepth

    let dictionary: ManifestDictionary?
    var reader: ByteReader
    /// The raw column at the end of the body (UUID, packed digits, low bytes of times).
    var raw = ByteReader([])
    var destinations: [Destination]
    var names: [String]
    /// For each of `names`, its id: the index of the first name with the same UTF-8 bytes, so that names a hostile
    /// body repeats share what is expected of them, exactly as when these were looked up by bytes.
    var nameIDs: [Int]
    /// The ids of names this body spelled out that the dictionary does not hold, by UTF-8 bytes.
    var bodyNameIDs: [[UInt8]: Int] = [:]
    var keys: [String]
    var shapes: [[String]]
    /// The shape index each name id expects (indexed like `names`), -1 where none is expected yet.
    var expectedShapes: [Int]
    var lastNumbered: [[UInt8]: (prefix: String, count: Int)] = [:]
    var strings: [String] = []
    var prefixes: [String] = []
    var conditions: [String]
    var urls: [String] = []
    /// Printed deep links by destination table index: a trail reopens the same few links.
    var printedURLs: [String?] = []
    /// Each destination's canonical JSON, written once per table slot and reused by every step naming it.
    var destinationJSON = DestinationJSONCache()

    /// The most steps a body may hold; more is refused as soon as the count is read.
    let maximumSteps: Int

    /// The format version whose body this is: 1 (raw column inside the body) or 2 (raw column beside it).
    let formatVersion: UInt8
    /// Whether the raw column is inside the inflated body (version 1, or version 2 with the flag), so that running
    /// out of it means a corrupt body rather than a cut input.
    var rawIsDeflated = false

    /// A decoder of a format version 2 (or 3) body: the inflated structure and the raw column that followed the stream.
    init(
        structure: [UInt8], raw: [UInt8], dictionary: ManifestDictionary?, maximumSteps: Int = TrailCodec.Limits().maximumSteps,
        formatVersion: UInt8 = 2
    ) {
        self.init(formatVersion: formatVersion, reader: ByteReader(structure), dictionary: dictionary, maximumSteps: maximumSteps)
        self.raw = ByteReader(raw)
    }

    /// A decoder of a format version 1 body: the fields byte, the raw column's length, the structure, the raw column.
    init(version1Body body: [UInt8], dictionary: ManifestDictionary?, maximumSteps: Int = TrailCodec.Limits().maximumSteps) {
        self.init(formatVersion: 1, reader: ByteReader(body), dictionary: dictionary, maximumSteps: maximumSteps)
    }

    private init(formatVersion: UInt8, reader: ByteReader, dictionary: ManifestDictionary?, maximumSteps: Int) {
        self.formatVersion = formatVersion
        self.dictionary = dictionary
        self.maximumSteps = maximumSteps
        self.reader = reader
        destinations = dictionary?.destinations ?? []
        names = dictionary?.names ?? []
        keys = dictionary?.keys ?? []
        shapes = dictionary?.shapes ?? [[]]
        nameIDs = dictionary?.nameIDs ?? []
        expectedShapes = dictionary?.expectedShapesByNameID ?? []
        conditions = dictionary?.conditions ?? []
    }

    /// The trail the body holds, with its canonical JSON written straight from the body's step codes.
    /// - Throws: `ByteReader.ReadError` saying what was cut short or invalid.
    mutating func decode() throws(ReadError) -> DecodedTrail {
        let (fields, forms) = try readFlags()
        try checkFlags(fields)
        let head = try readHead(fields: fields, forms: forms)
        let codes = try readStepCodes()
        var times = try readTimeHighParts(count: codes.count)
        let lows = try rawBytes(codes.count, "the low bytes of the step times")
        var replay: FinalReplay? =
            if fields & BodyCode.Field.finalIsReplayed != 0, let manifest = dictionary?.manifest {
                FinalReplay(manifest: manifest, base: head.base)
            } else {
                nil
            }
        let steps = try buildSteps(codes, times: &times, lows: lows, replay: &replay)
        let final = try readFinal(fields: fields, steps: steps, replay: replay)
        guard reader.isAtEnd else { throw .invalid("\(reader.remaining) bytes follow the end of the body") }
        guard raw.isAtEnd else { throw .invalid("\(raw.remaining) bytes of the raw column are left over") }
        let trail = Trail(app: head.app, session: head.session, base: head.base, dropped: head.dropped, steps: steps, final: final)
        var decoded = DecodedTrail(trail: trail, canonicalJSON: canonicalJSON(of: trail, codes: codes, times: times))
        decoded.replayedScreens = replay?.replayedScreens
        return decoded
    }

    /// The final state, when the fields say there is one: replayed from the steps, or written in full.
    private mutating func readFinal(fields: UInt8, steps: [Step], replay: FinalReplay?) throws(ReadError) -> NavigationState? {
        guard fields & BodyCode.Field.hasFinal != 0 else { return nil }
        if let replay { return try replay.final(of: steps) }
        return try readState("the final state")
    }
}
