import CrashtrailCore

/// The fields before the steps: the flags, then the app, the session, the dropped count and the base state. Format
/// version 1 and version 2 differ here only: version 2 adds a forms byte (how the version, build and session start
/// are written) and may keep the raw column after the stream.
extension TrailBodyDecoder {
    /// What the body holds before its steps.
    struct Head {
        var app: Trail.AppInfo
        var session: Trail.Session
        var dropped: Int64
        var base: NavigationState?
    }

    /// Reads the field flags and, in version 2, the forms byte, and moves a raw column held inside the stream into
    /// `raw`.
    mutating func readFlags() throws(ReadError) -> (fields: UInt8, forms: UInt8) {
        let fields = try reader.byte("the field flags")
        rawIsDeflated = formatVersion == 1 || fields & BodyCode.Field.rawIsDeflated != 0
        // Version 1: the raw column's length follows the fields byte. Version 2: the forms byte does, and then only
        // when the raw column is inside the stream rather than after it.
        let forms = formatVersion == 1 ? 0 : try reader.byte("the forms of the version, build and session start")
        if rawIsDeflated {
            guard raw.isAtEnd else { throw .invalid("\(raw.remaining) bytes follow a stream that holds the raw column") }
            try splitRawColumn()
        }
        return (fields, forms)
    }

    /// Refuses the flag combinations no encoder writes.
    func checkFlags(_ fields: UInt8) throws(ReadError) {
        if dictionary == nil {
            let needsManifest = BodyCode.Field.bundleIDIsManifestApp | BodyCode.Field.baseIsLaunchState | BodyCode.Field.finalIsReplayed
            guard fields & needsManifest == 0 else { throw .invalid("the body refers to a manifest but names none") }
        }
        let bothCases = BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID
        guard fields & bothCases != bothCases else { throw .invalid("the session ID is flagged both upper and lower case") }
        if fields & BodyCode.Field.baseIsLaunchState != 0, fields & BodyCode.Field.hasBase == 0 {
            throw .invalid("the launch-state flag is set without a base")
        }
        if fields & BodyCode.Field.finalIsReplayed != 0, fields & BodyCode.Field.hasFinal == 0 {
            throw .invalid("the replayed-final flag is set without a final state")
        }
    }

    /// Reads the app, the session, the dropped count and the base state, as `fields` and `forms` say they are written.
    mutating func readHead(fields: UInt8, forms: UInt8) throws(ReadError) -> Head {
        let manifest = dictionary?.manifest
        let bundleID =
            if fields & BodyCode.Field.bundleIDIsManifestApp != 0, let manifest { manifest.app } else {
                try reader.string("the bundle ID")
            }
        let version = try readDotted(count: forms >> BodyCode.Forms.versionShift & BodyCode.Forms.countMask, "the app version")
        let build = try readDotted(count: forms >> BodyCode.Forms.buildShift & BodyCode.Forms.countMask, "the app build")
        let sessionID = try readSessionID(fields: fields)
        let started = formatVersion >= 2 ? try readVersion2Start(forms: forms) : try readVersion1Start(fields: fields)
        let pid = try reader.signed("the process ID")
        var session = Trail.Session(id: sessionID, started: started, pid: pid)
        if formatVersion >= TrailHeader.endedVersion {
            let byte = try reader.byte("how the session ended")
            // Version 3 is written only for a trail that says how its session ended.
            guard byte != 0, let ended = BodyCode.ending(byte: byte) else {
                throw .invalid("the session's ending is \(byte), which no encoder writes in format version 3")
            }
            let rate = try reader.varint("the sample rate")
            if rate != 0 {
                guard rate <= UInt64(Trail.SampleRate.one), let sampleRate = Trail.SampleRate(billionths: Int64(rate)) else {
                    throw .invalid("the sample rate is \(rate) billionths, above 1")
                }
                session.sampleRate = sampleRate
            }
            session.ended = ended
        }
        let droppedRaw = try reader.varint("the dropped count")
        guard droppedRaw <= UInt64(Int64.max) else { throw .invalid("the dropped count does not fit in 64 bits") }
        return Head(
            app: Trail.AppInfo(bundleID: bundleID, version: version, build: build),
            session: session, dropped: Int64(droppedRaw),
            base: try readBase(fields: fields))
    }

    /// A version or build: `count` dotted decimal numbers, or a string when `count` is 0.
    private mutating func readDotted(count: UInt8, _ what: @autoclosure () -> String) throws(ReadError) -> String {
        guard count > 0 else { return try reader.string(what()) }
        var numbers: [UInt64] = []
        for _ in 0..<count { numbers.append(try reader.varint(what())) }
        return CompactFields.dottedText(numbers)
    }

    /// The session ID: a UUID of 16 raw bytes, printed in the case the flags give, or a string.
    private mutating func readSessionID(fields: UInt8) throws(ReadError) -> String {
        guard fields & (BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID) != 0 else {
            return try reader.string("the session ID")
        }
        return CompactFields.uuidText(try rawBytes(16, "the session UUID"), upper: fields & BodyCode.Field.sessionIDUpperUUID != 0)
    }

    /// Version 2's session start, in the form the forms byte names: text, or a number of a time unit.
    private mutating func readVersion2Start(forms: UInt8) throws(ReadError) -> String {
        guard let form = CompactFields.StartedForm(rawValue: forms >> BodyCode.Forms.startedShift) else {
            throw .invalid("the session start has form \(forms >> BodyCode.Forms.startedShift), which no encoder writes")
        }
        if form == .text { return try reader.string("the session start") }
        guard let text = CompactFields.startedText(form, value: try reader.varint("the session start")) else {
            throw .invalid("the session start is past year 9999")
        }
        return text
    }

    /// Version 1's session start: whole seconds when the fields say so, else text.
    private mutating func readVersion1Start(fields: UInt8) throws(ReadError) -> String {
        guard fields & BodyCode.Field.startedIsSeconds != 0 else { return try reader.string("the session start") }
        guard let text = CompactFields.timestamp(ofSeconds: try reader.signed("the session start")) else {
            throw .invalid("the session start is outside years 0 to 9999")
        }
        return text
    }

    /// The base state, when the fields say there is one: the manifest's launch state, or a state written in full.
    private mutating func readBase(fields: UInt8) throws(ReadError) -> NavigationState? {
        guard fields & BodyCode.Field.hasBase != 0 else { return nil }
        if fields & BodyCode.Field.baseIsLaunchState != 0, let manifest = dictionary?.manifest { return manifest.launchState }
        return try readState("the base state")
    }
}
