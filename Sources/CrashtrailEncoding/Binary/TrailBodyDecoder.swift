import CrashtrailCore

/// Reads a body that ``TrailBodyEncoder`` wrote, refusing anything it would not write.
///
/// Every count is checked
/// against the bytes that remain and nesting is bounded, so hostile bodies fail fast and in bounded memory.
struct TrailBodyDecoder {
    typealias Failure = ByteReader.Failure

    /// Payload values nest at most this deep, as the JSON parser allows.
    static let maximumDepth = JSONParser.defaultMaximumDepth

    private let dictionary: ManifestDictionary?
    private var reader: ByteReader
    /// The raw column at the end of the body (UUID, packed digits, low bytes of times).
    private var raw = ByteReader([])
    private(set) var destinations: [Destination]
    private var names: [String]
    /// For each of `names`, its id: the index of the first name with the same UTF-8 bytes, so that names a hostile
    /// body repeats share what is expected of them, exactly as when these were looked up by bytes.
    private var nameIDs: [Int]
    /// The ids of names this body spelled out that the dictionary does not hold, by UTF-8 bytes.
    private var bodyNameIDs: [[UInt8]: Int] = [:]
    private var keys: [String]
    private var shapes: [[String]]
    /// The shape index each name id expects (indexed like `names`), -1 where none is expected yet.
    private var expectedShapes: [Int]
    private var lastNumbered: [[UInt8]: (prefix: String, count: Int)] = [:]
    private var strings: [String] = []
    private var prefixes: [String] = []
    private(set) var conditions: [String]
    private(set) var urls: [String] = []
    /// Printed deep links by destination table index: a trail reopens the same few links.
    private(set) var printedURLs: [String?] = []
    /// Each destination's canonical JSON, written once per table slot and reused by every step naming it.
    var destinationJSON = DestinationJSONCache()

    /// The most steps a body may hold; more is refused as soon as the count is read.
    private let maximumSteps: Int

    /// The format version whose body this is: 1 (raw column inside the body) or 2 (raw column beside it).
    private let formatVersion: UInt8
    /// Whether the raw column is inside the inflated body (version 1, or version 2 with the flag), so that running
    /// out of it means a corrupt body rather than a cut input.
    private var rawIsDeflated = false

    /// A decoder of a format version 2 body: the inflated structure and the raw column that followed the stream.
    init(
        structure: [UInt8], raw: [UInt8], dictionary: ManifestDictionary?, maximumSteps: Int = TrailCodec.Limits().maximumSteps
    ) {
        self.init(formatVersion: 2, reader: ByteReader(structure), dictionary: dictionary, maximumSteps: maximumSteps)
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
    /// - Throws: `ByteReader.Failure` saying what was cut short or invalid.
    mutating func decode() throws(Failure) -> DecodedTrail {
        let fields = try reader.byte("the field flags")
        rawIsDeflated = formatVersion == 1 || fields & BodyCode.Field.rawIsDeflated != 0
        // Version 1: the raw column's length follows the fields byte. Version 2: the forms byte does, and then only
        // when the raw column is inside the stream rather than after it.
        let forms = formatVersion == 1 ? 0 : try reader.byte("the forms of the version, build and session start")
        if rawIsDeflated {
            guard raw.isAtEnd else { throw .invalid("\(raw.remaining) bytes follow a stream that holds the raw column") }
            try splitRawColumn()
        }
        let manifest = dictionary?.manifest
        if manifest == nil {
            let needsManifest = BodyCode.Field.bundleIDIsManifestApp | BodyCode.Field.baseIsLaunchState | BodyCode.Field.finalIsReplayed
            guard fields & needsManifest == 0 else { throw .invalid("the body refers to a manifest but names none") }
        }
        guard
            fields & (BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID)
                != (BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID)
        else { throw .invalid("the session ID is flagged both upper and lower case") }
        if fields & BodyCode.Field.baseIsLaunchState != 0, fields & BodyCode.Field.hasBase == 0 {
            throw .invalid("the launch-state flag is set without a base")
        }
        if fields & BodyCode.Field.finalIsReplayed != 0, fields & BodyCode.Field.hasFinal == 0 {
            throw .invalid("the replayed-final flag is set without a final state")
        }

        let bundleID =
            if fields & BodyCode.Field.bundleIDIsManifestApp != 0, let manifest { manifest.app } else {
                try reader.string("the bundle ID")
            }
        let version = try readDotted(count: forms >> BodyCode.Forms.versionShift & BodyCode.Forms.countMask, "the app version")
        let build = try readDotted(count: forms >> BodyCode.Forms.buildShift & BodyCode.Forms.countMask, "the app build")
        let sessionID: String
        if fields & (BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID) != 0 {
            sessionID = CompactFields.uuidText(
                try rawBytes(16, "the session UUID"), upper: fields & BodyCode.Field.sessionIDUpperUUID != 0)
        } else {
            sessionID = try reader.string("the session ID")
        }
        let started: String
        if formatVersion >= 2 {
            guard let form = CompactFields.StartedForm(rawValue: forms >> BodyCode.Forms.startedShift) else {
                throw .invalid("the session start has form \(forms >> BodyCode.Forms.startedShift), which no encoder writes")
            }
            if form == .text {
                started = try reader.string("the session start")
            } else {
                guard let text = CompactFields.startedText(form, value: try reader.varint("the session start")) else {
                    throw .invalid("the session start is past year 9999")
                }
                started = text
            }
        } else if fields & BodyCode.Field.startedIsSeconds != 0 {
            guard let text = CompactFields.timestamp(ofSeconds: try reader.signed("the session start")) else {
                throw .invalid("the session start is outside years 0 to 9999")
            }
            started = text
        } else {
            started = try reader.string("the session start")
        }
        let pid = try reader.signed("the process ID")
        let droppedRaw = try reader.varint("the dropped count")
        guard droppedRaw <= UInt64(Int64.max) else { throw .invalid("the dropped count does not fit in 64 bits") }

        var base: NavigationState?
        if fields & BodyCode.Field.hasBase != 0 {
            if fields & BodyCode.Field.baseIsLaunchState != 0, let manifest {
                base = manifest.launchState
            } else {
                base = try readState("the base state")
            }
        }

        let count = try reader.count("the step count", atMost: reader.remaining)
        guard count <= maximumSteps else { throw .tooManySteps(count, limit: maximumSteps) }
        let ops = Array(try reader.bytes(count, "the op bytes"))
        var codes: [StepCode] = []
        codes.reserveCapacity(count)
        for (index, op) in ops.enumerated() {
            codes.append(try readOperation(op, step: index))
        }
        var times: [Int64] = []
        times.reserveCapacity(count)
        var t: Int64 = 0
        for index in 0..<count {
            let high = try reader.varint("the time of step \(index)")
            guard high <= UInt64(Int64.max) >> 8 else { throw .invalid("the time of step \(index) overflows") }
            // The low bytes are read after every high part, so the sum is checked once they are known (below).
            times.append(Int64(high << 8))
        }
        let lows = try rawBytes(count, "the low bytes of the step times")
        // A replayed final is rebuilt as the steps are: each is applied before it moves into the array, so the engine
        // reads it in place (applied from the array, every step would be copied out and destroyed). Only the final
        // state is kept, so the replay builds no anomalies. Errors are still thrown below, in their order.
        var engine: NavigationEngine?
        var baseError: String?
        if fields & BodyCode.Field.finalIsReplayed != 0, let manifest {
            // The engine assumes a valid state: check the base before replaying from it.
            if let base {
                do {
                    _ = try NavigationState(jsonValue: base.jsonValue, path: "base")
                } catch {
                    baseError = error.description
                }
            }
            if baseError == nil { engine = NavigationEngine(manifest: manifest, state: base ?? manifest.launchState) }
        }
        var steps: [Step] = []
        steps.reserveCapacity(count)
        for (index, low) in zip(0..<count, lows) {
            let delta = times[index] | Int64(low)
            let (sum, overflow) = t.addingReportingOverflow(delta)
            guard !overflow else { throw .invalid("the time of step \(index) overflows") }
            t = sum
            times[index] = t
            let code = codes[index]
            let step = Step(t: t, operation(of: code))
            if code.op < 0x80, code.op >> 5 == BodyCode.DestinationKind.openPrintedURL.rawValue {
                // A printed link opens the destination it was printed from; apply that directly rather than parse
                // the URL back (the encoder writes this form only when the link resolves back to that destination,
                // so it is the same request and leads to the same state).
                engine?.applyDiscardingAnomalies(Step(t: t, .open(.destination(destinations[Int(code.argument)]))))
            } else {
                engine?.applyDiscardingAnomalies(step)
            }
            steps.append(step)
        }

        var final: NavigationState?
        if fields & BodyCode.Field.hasFinal != 0 {
            if fields & BodyCode.Field.finalIsReplayed != 0, let manifest {
                guard TrailBodyEncoder.canReplay(steps, manifest: manifest) else {
                    throw .invalid("the final state is flagged as replayed but the step times are out of the replayable range")
                }
                if let baseError { throw .invalid("the base state is invalid: \(baseError)") }
                final = engine?.state
            } else {
                final = try readState("the final state")
            }
        }
        guard reader.isAtEnd else { throw .invalid("\(reader.remaining) bytes follow the end of the body") }
        guard raw.isAtEnd else { throw .invalid("\(raw.remaining) bytes of the raw column are left over") }
        let trail = Trail(
            app: Trail.AppInfo(bundleID: bundleID, version: version, build: build),
            session: Trail.Session(id: sessionID, started: started, pid: pid), base: base,
            dropped: Int64(droppedRaw), steps: steps, final: final)
        return DecodedTrail(trail: trail, canonicalJSON: canonicalJSON(of: trail, codes: codes, times: times))
    }

    /// Reads the raw column's length and moves that many bytes from the end of the rest of the body into `raw`.
    private mutating func splitRawColumn() throws(Failure) {
        let rawLength = try reader.count("the raw column's length", atMost: reader.remaining)
        let body = Array(reader.remainingBytes)
        guard rawLength <= body.count else {
            throw .invalid("the raw column is \(rawLength) bytes but only \(body.count) follow")
        }
        let structureEnd = body.count - rawLength
        raw = ByteReader(Array(body[structureEnd...]))
        reader = ByteReader(Array(body[..<structureEnd]))
    }

    /// `count` bytes of the raw column. In format version 2 the raw column ends the input, so running out of it
    /// means the input was cut short; in version 1 it ends the inflated body, which then is corrupt.
    private mutating func rawBytes(_ count: Int, _ what: @autoclosure () -> String) throws(Failure) -> ArraySlice<UInt8> {
        do {
            return try raw.bytes(count, what())
        } catch .truncated(let message) where formatVersion >= 2 && !rawIsDeflated {
            throw .inputEnds(message)
        }
    }

    /// A version or build: `count` dotted decimal numbers, or a string when `count` is 0.
    private mutating func readDotted(count: UInt8, _ what: @autoclosure () -> String) throws(Failure) -> String {
        guard count > 0 else { return try reader.string(what()) }
        var numbers: [UInt64] = []
        for _ in 0..<count { numbers.append(try reader.varint(what())) }
        return CompactFields.dottedText(numbers)
    }

    /// Reads the arguments of the step with op byte `op`, returning its code; the step is built once its time is
    /// known.
    private mutating func readOperation(_ op: UInt8, step: Int) throws(Failure) -> StepCode {
        if op < 0x80 {
            let slot = op & 0x1F
            let tableIndex = try readDestinationSlot(slot, step: step)
            if BodyCode.DestinationKind(rawValue: op >> 5) == .openPrintedURL {
                if tableIndex >= printedURLs.count {
                    printedURLs.append(contentsOf: repeatElement(nil, count: tableIndex + 1 - printedURLs.count))
                }
                if printedURLs[tableIndex] == nil {
                    let destination = destinations[tableIndex]
                    guard let printed = dictionary?.manifest.url(for: destination) else {
                        throw .invalid("step \(step) opens the printed URL of \(destination.name), which has none")
                    }
                    printedURLs[tableIndex] = printed
                }
            }
            return StepCode(op: op, argument: Int64(tableIndex))
        }
        switch op {
        case BodyCode.pop, BodyCode.popToRoot, BodyCode.dismiss, BodyCode.completeFailure, BodyCode.completeSuccess:
            return StepCode(op: op, argument: 0)
        case BodyCode.openURL:
            return StepCode(op: op, argument: Int64(try Self.readInternedIndex(&urls, &reader, "the URL of step \(step)")))
        default: break
        }
        let nibble = op & 0x0F
        switch op & 0xF0 {
        case BodyCode.select:
            return StepCode(
                op: op, argument: nibble == BodyCode.nibbleEscape ? try reader.signed("the tab of step \(step)") : Int64(nibble))
        case BodyCode.satisfy, BodyCode.revoke: return StepCode(op: op, argument: Int64(try readConditionIndex(nibble, step: step)))
        default: throw .invalid("step \(step) has op byte 0x\(String(op, radix: 16)), which no encoder writes")
        }
    }

    /// The operation of a step read as `code`, naming the tables' values.
    private func operation(of code: StepCode) -> Step.Operation {
        let op = code.op
        let argument = Int(truncatingIfNeeded: code.argument)
        if op < 0x80 {
            switch BodyCode.DestinationKind(rawValue: op >> 5) {
            case .push: return .push(destinations[argument])
            case .present: return .present(destinations[argument])
            case .openDestination: return .open(.destination(destinations[argument]))
            case .openPrintedURL, .none: return .open(.url(printedURLs[argument] ?? ""))
            }
        }
        switch op {
        case BodyCode.pop: return .pop
        case BodyCode.popToRoot: return .popToRoot
        case BodyCode.dismiss: return .dismiss
        case BodyCode.completeFailure: return .complete(success: false)
        case BodyCode.completeSuccess: return .complete(success: true)
        case BodyCode.openURL: return .open(.url(urls[argument]))
        default: break
        }
        switch op & 0xF0 {
        case BodyCode.select: return .select(tab: code.argument)
        case BodyCode.satisfy: return .satisfy(conditions[argument])
        default: return .revoke(conditions[argument])
        }
    }

    /// The destination table index a step names, reading a new destination into the table.
    private mutating func readDestinationSlot(_ slot: UInt8, step: Int) throws(Failure) -> Int {
        switch slot {
        case BodyCode.newSlot:
            _ = try readNewDestination(depth: 0)
            return destinations.count - 1
        case BodyCode.escapeSlot:
            let rest = try reader.index(
                "the destination of step \(step)", below: max(0, destinations.count - Int(BodyCode.foldedSlots)))
            return rest + Int(BodyCode.foldedSlots)
        default:
            let index = Int(slot) - 1
            guard index < destinations.count else {
                throw .invalid("step \(step) names destination \(index) but only \(destinations.count) are known")
            }
            return index
        }
    }

    /// The condition table index a satisfy or revoke names, reading a new condition into the table.
    private mutating func readConditionIndex(_ nibble: UInt8, step: Int) throws(Failure) -> Int {
        switch nibble {
        case 0:
            let condition = try reader.string("the condition of step \(step)")
            conditions.append(condition)
            return conditions.count - 1
        case BodyCode.nibbleEscape:
            let rest = try reader.index(
                "the condition of step \(step)", below: max(0, conditions.count - Int(BodyCode.nibbleEscape) + 1))
            return rest + Int(BodyCode.nibbleEscape) - 1
        default:
            let index = Int(nibble) - 1
            guard index < conditions.count else {
                throw .invalid("step \(step) names condition \(index) but only \(conditions.count) are known")
            }
            return index
        }
    }

    private mutating func readDestinationReference(_ what: @autoclosure () -> String) throws(Failure) -> Destination {
        let reference = try reader.index(what(), below: destinations.count + 1)
        return reference == 0 ? try readNewDestination(depth: 0) : destinations[reference - 1]
    }

    private mutating func readNewDestination(depth: Int) throws(Failure) -> Destination {
        let nameReference = try reader.varint("a destination name")
        let flags = Int(nameReference & 3)
        let nameNumber = nameReference >> 2
        guard flags != 2 else { throw .invalid("a destination's name reference has flags 2, which no encoder writes") }
        let name: String
        let nameID: Int
        if nameNumber == 0 {
            name = try reader.string("a destination name")
            let bytes = Array(name.utf8)
            if let known = dictionary?.nameIDsByBytes[bytes] ?? bodyNameIDs[bytes] {
                nameID = known
            } else {
                nameID = names.count
                bodyNameIDs[bytes] = nameID
            }
            names.append(name)
            nameIDs.append(nameID)
            expectedShapes.append(-1)
        } else {
            guard nameNumber <= UInt64(names.count) else {
                throw .invalid("a destination names name \(nameNumber - 1) but only \(names.count) are known")
            }
            name = names[Int(nameNumber) - 1]
            nameID = nameIDs[Int(nameNumber) - 1]
        }
        let shapeIndex: Int
        if flags != 0 {
            if expectedShapes[nameID] >= 0 {
                shapeIndex = expectedShapes[nameID]
            } else {
                shapeIndex = 0
                expectedShapes[nameID] = 0
            }
        } else {
            let shapeReference = try reader.index("the payload shape of \(name)", below: shapes.count + 1)
            if shapeReference == BodyCode.newShape {
                let count = try reader.count("the key count of \(name)", atMost: reader.remaining)
                var newShape: [String] = []
                for _ in 0..<count { newShape.append(try Self.readInterned(&keys, &reader, "a payload key of \(name)")) }
                shapes.append(newShape)
                shapeIndex = shapes.count - 1
            } else {
                shapeIndex = shapeReference - 1
            }
            if expectedShapes[nameID] != shapeIndex { expectedShapes[nameID] = shapeIndex }
        }
        let shape = shapes[shapeIndex]
        guard flags != BodyCode.NameFlag.allNumberedLikeLast || !shape.isEmpty else {
            throw .invalid("\(name) is flagged with numbered values but has no payload keys")
        }
        var payload: [String: JSONValue]
        if shape.count == 1 {
            // Most payloads have one key: a one-element literal is built in one sized allocation, where an insert
            // into `[:]` grows it (and `init(minimumCapacity:)` is not specialized here, which costs more).
            payload = [shape[0]: try readPayloadValue(flags: flags, depth: depth, place: Place(name: name, key: shape[0]))]
        } else {
            payload = [:]
            for key in shape {
                payload[key] = try readPayloadValue(flags: flags, depth: depth, place: Place(name: name, key: key))
            }
        }
        guard payload.count == shape.count else { throw .invalid("the payload of \(name) repeats a key") }
        let destination = Destination(name, payload)
        destinations.append(destination)
        return destination
    }

    /// The value of a payload key at `place`, read as the destination's name `flags` say.
    private mutating func readPayloadValue(flags: Int, depth: Int, place: Place) throws(Failure) -> JSONValue {
        flags == BodyCode.NameFlag.allNumberedLikeLast
            ? try readNumberedLikeLast(place: place) : try readValue(depth: depth + 1, place: place)
    }

    /// Where a payload value sits, which numbered strings are remembered by.
    ///
    /// It is the destination's name, the payload key, then what leads below it; its bytes are built only when a
    /// numbered string needs them.
    private struct Place {
        let name: String
        let key: String
        /// What follows the key: an element marker, or a separator and a key, per level below the payload.
        var below: [UInt8] = []

        /// The name's UTF-8, the separator (0xFF, which UTF-8 never holds), the key's UTF-8, then `below`.
        var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(name.utf8.count + 1 + key.utf8.count + below.count)
            bytes.append(contentsOf: name.utf8)
            bytes.append(BodyCode.placeSeparator)
            bytes.append(contentsOf: key.utf8)
            bytes.append(contentsOf: below)
            return bytes
        }

        /// The place one level below this one, `suffix` further on.
        func appending(_ suffix: [UInt8]) -> Place {
            Place(name: name, key: key, below: below + suffix)
        }
    }

    private mutating func readValue(depth: Int, place: Place) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw .invalid("payload values nest deeper than \(Self.maximumDepth)") }
        let tag = try reader.byte("a value tag")
        switch BodyCode.Value(rawValue: tag) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(try reader.signed("an integer value"))
        case .newString:
            let string = try reader.string("a string value")
            strings.append(string)
            return .string(string)
        case .stringReference:
            return .string(strings[try reader.index("a string reference", below: strings.count)])
        case .array:
            let count = try reader.count("an array's length", atMost: reader.remaining)
            var array: [JSONValue] = []
            array.reserveCapacity(count)
            for _ in 0..<count { array.append(try readValue(depth: depth + 1, place: place.appending([BodyCode.arrayElementMarker]))) }
            return .array(array)
        case .object:
            let count = try reader.count("an object's key count", atMost: reader.remaining)
            var object: [String: JSONValue] = [:]
            for _ in 0..<count {
                let key = try Self.readInterned(&keys, &reader, "an object key")
                object[key] = try readValue(depth: depth + 1, place: place.appending([BodyCode.placeSeparator] + Array(key.utf8)))
            }
            guard object.count == count else { throw .invalid("an object in a payload repeats a key") }
            return .object(object)
        case .numberedLikeLast: return try readNumberedLikeLast(place: place)
        case .none:
            guard tag > BodyCode.numberedStringBase, tag <= BodyCode.numberedStringBase + UInt8(DecimalDigits.maximumCount) else {
                throw .invalid("value tag \(tag) is not one an encoder writes")
            }
            let prefix = try Self.readInterned(&prefixes, &reader, "a string prefix")
            let count = Int(tag - BodyCode.numberedStringBase)
            lastNumbered[place.bytes] = (prefix, count)
            return try readNumberedString(prefix: prefix, count: count)
        }
    }

    private mutating func readNumberedLikeLast(place: Place) throws(Failure) -> JSONValue {
        guard let last = lastNumbered[place.bytes] else {
            throw .invalid("a numbered string repeats the form of one never seen at its place")
        }
        return try readNumberedString(prefix: last.prefix, count: last.count)
    }

    private mutating func readNumberedString(prefix: String, count: Int) throws(Failure) -> JSONValue {
        let packed = try rawBytes(DecimalDigits.width(ofDigits: count), "a string's digits")
        guard let digits = DecimalDigits.unpack(packed, count: count) else {
            throw .invalid("a string's packed number has more than \(count) digits")
        }
        let string = prefix + String(decoding: digits, as: UTF8.self)
        strings.append(string)
        return .string(string)
    }

    private static func readInterned(_ table: inout [String], _ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Failure) -> String {
        table[try readInternedIndex(&table, &reader, what())]
    }

    /// The table index of an interned string, reading a new one into the table.
    private static func readInternedIndex(
        _ table: inout [String], _ reader: inout ByteReader, _ what: @autoclosure () -> String
    ) throws(Failure) -> Int {
        let reference = try reader.index(what(), below: table.count + 1)
        if reference > 0 { return reference - 1 }
        let string = try reader.string(what())
        table.append(string)
        return table.count - 1
    }

    private mutating func readState(_ what: String) throws(Failure) -> NavigationState {
        let tabReference = try reader.varint("the tab of \(what)")
        var lists: [[[Destination]]] = []
        for part in ["stacks", "modals"] {
            let count = try reader.count("the \(part) count of \(what)", atMost: reader.remaining)
            var stacks: [[Destination]] = []
            for _ in 0..<count {
                let depth = try reader.count("a stack depth of \(what)", atMost: reader.remaining)
                var stack: [Destination] = []
                for _ in 0..<depth { stack.append(try readDestinationReference("a destination of \(what)")) }
                stacks.append(stack)
            }
            lists.append(stacks)
        }
        let conditionCount = try reader.count("the condition count of \(what)", atMost: reader.remaining)
        var satisfied: Set<String> = []
        for _ in 0..<conditionCount {
            let reference = try reader.index("a condition of \(what)", below: conditions.count + 1)
            if reference > 0 {
                satisfied.insert(conditions[reference - 1])
            } else {
                let condition = try reader.string("a condition of \(what)")
                conditions.append(condition)
                satisfied.insert(condition)
            }
        }
        let mode = try reader.byte("the pending mode of \(what)")
        var pending: PendingDestination?
        switch mode {
        case BodyCode.noPending: pending = nil
        case 1...3:
            let modes: [RequestMode] = [.push, .present, .open]
            pending = PendingDestination(try readDestinationReference("the pending destination of \(what)"), mode: modes[Int(mode) - 1])
        default: throw .invalid("the pending mode of \(what) is \(mode)")
        }
        guard tabReference <= UInt64(lists[0].count) else { throw .invalid("the tab of \(what) is out of range") }
        return NavigationState(
            tab: tabReference == 0 ? nil : Int(tabReference - 1), stacks: lists[0], modals: lists[1],
            conditions: satisfied, pending: pending)
    }
}
