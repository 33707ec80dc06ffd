// A refactor guard, not an oracle of the format: the body decoder as it was before it wrote canonical JSON from
// step codes, kept verbatim (renamed), which DecodedJSONTests and RepeatedNameTests compare the new decoder with
// (same trails, same failures). It shares the production helpers, so it cannot catch a format bug; the format is
// checked against docs/ENCODING.md by IndependentTrailDecoder (IndependentDecoderTests).

import CrashtrailCore

@testable import CrashtrailEncoding

/// Reads a body that ``TrailBodyEncoder`` wrote, refusing anything it would not write.
///
/// Every count is checked
/// against the bytes that remain and nesting is bounded, so hostile bodies fail fast and in bounded memory.
struct ReferenceTrailBodyDecoder {
    typealias Failure = ByteReader.Failure

    /// Payload values nest at most this deep, as the JSON parser allows.
    static let maximumDepth = JSONParser.defaultMaximumDepth

    private let dictionary: ManifestDictionary?
    private var reader: ByteReader
    /// The raw column at the end of the body (UUID, packed digits, low bytes of times).
    private var raw = ByteReader([])
    private var destinations: [Destination]
    private var names: [String]
    private var keys: [String]
    private var shapes: [[String]]
    private var expectedShapes: [[UInt8]: Int]
    private var lastNumbered: [[UInt8]: (prefix: String, count: Int)] = [:]
    private var strings: [String] = []
    private var prefixes: [String] = []
    private var conditions: [String]
    private var urls: [String] = []
    /// Steps that open a destination's printed deep link, by step index, with that destination: replaying them
    /// needs no URL lookup, since the encoder writes this form only when the link resolves back to it.
    private var printedLinks: [(step: Int, destination: Destination)] = []
    /// Printed deep links by destination table index: a trail reopens the same few links.
    private var printedURLs: [Int: String] = [:]

    /// The most steps a body may hold; more is refused as soon as the count is read.
    private let maximumSteps: Int

    init(body: [UInt8], dictionary: ManifestDictionary?, maximumSteps: Int = TrailCodec.Limits().maximumSteps) {
        self.dictionary = dictionary
        self.maximumSteps = maximumSteps
        reader = ByteReader(body)
        destinations = dictionary?.destinations ?? []
        names = dictionary?.names ?? []
        keys = dictionary?.keys ?? []
        shapes = dictionary?.shapes ?? [[]]
        expectedShapes = dictionary?.expectedShapes ?? [:]
        conditions = dictionary?.conditions ?? []
    }

    /// The trail the body holds.
    /// - Throws: `ByteReader.Failure` saying what was cut short or invalid.
    mutating func decode() throws(Failure) -> Trail {
        let fields = try reader.byte("the field flags")
        let rawLength = try reader.count("the raw column's length", atMost: reader.remaining)
        let body = Array(reader.remainingBytes)
        guard rawLength <= body.count else {
            throw .invalid("the raw column is \(rawLength) bytes but only \(body.count) follow")
        }
        let structureEnd = body.count - rawLength
        raw = ByteReader(Array(body[structureEnd...]))
        reader = ByteReader(Array(body[..<structureEnd]))
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
        let version = try reader.string("the app version")
        let build = try reader.string("the app build")
        let sessionID: String
        if fields & (BodyCode.Field.sessionIDUpperUUID | BodyCode.Field.sessionIDLowerUUID) != 0 {
            sessionID = CompactFields.uuidText(
                try raw.bytes(16, "the session UUID"), upper: fields & BodyCode.Field.sessionIDUpperUUID != 0)
        } else {
            sessionID = try reader.string("the session ID")
        }
        let started: String
        if fields & BodyCode.Field.startedIsSeconds != 0 {
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
        var operations: [Step.Operation] = []
        operations.reserveCapacity(count)
        for (index, op) in ops.enumerated() {
            operations.append(try readOperation(op, step: index))
        }
        var highs: [UInt64] = []
        highs.reserveCapacity(count)
        for index in 0..<count {
            let high = try reader.varint("the time of step \(index)")
            guard high <= UInt64(Int64.max) >> 8 else { throw .invalid("the time of step \(index) overflows") }
            highs.append(high)
        }
        let lows = try raw.bytes(count, "the low bytes of the step times")
        var steps: [Step] = []
        steps.reserveCapacity(count)
        var t: Int64 = 0
        for (index, (operation, (high, low))) in zip(operations, zip(highs, lows)).enumerated() {
            let delta = Int64(high << 8 | UInt64(low))
            let (sum, overflow) = t.addingReportingOverflow(delta)
            guard !overflow else { throw .invalid("the time of step \(index) overflows") }
            t = sum
            steps.append(Step(t: t, operation))
        }

        var final: NavigationState?
        if fields & BodyCode.Field.hasFinal != 0 {
            if fields & BodyCode.Field.finalIsReplayed != 0, let manifest {
                guard TrailBodyEncoder.canReplay(steps, manifest: manifest) else {
                    throw .invalid("the final state is flagged as replayed but the step times are out of the replayable range")
                }
                // The engine assumes a valid state: check the base before replaying from it.
                if let base {
                    do {
                        _ = try NavigationState(jsonValue: base.jsonValue, path: "base")
                    } catch {
                        throw .invalid("the base state is invalid: \(error.description)")
                    }
                }
                var engine = NavigationEngine(manifest: manifest, state: base ?? manifest.launchState)
                if printedLinks.isEmpty {
                    engine.apply(steps)
                } else {
                    // A printed link opens the destination it was printed from; apply that directly rather than
                    // parse the URL back (the same request, so the same state).
                    var next = 0
                    for (index, step) in steps.enumerated() {
                        if next < printedLinks.count, printedLinks[next].step == index {
                            engine.apply(Step(t: step.t, .open(.destination(printedLinks[next].destination))))
                            next += 1
                        } else {
                            engine.apply(step)
                        }
                    }
                }
                final = engine.state
            } else {
                final = try readState("the final state")
            }
        }
        guard reader.isAtEnd else { throw .invalid("\(reader.remaining) bytes follow the end of the body") }
        guard raw.isAtEnd else { throw .invalid("\(raw.remaining) bytes of the raw column are left over") }
        return Trail(
            app: Trail.AppInfo(bundleID: bundleID, version: version, build: build),
            session: Trail.Session(id: sessionID, started: started, pid: pid), base: base,
            dropped: Int64(droppedRaw), steps: steps, final: final)
    }

    private mutating func readOperation(_ op: UInt8, step: Int) throws(Failure) -> Step.Operation {
        if op < 0x80 {
            let slot = op & 0x1F
            let (destination, tableIndex) = try readDestinationSlot(slot, step: step)
            switch BodyCode.DestinationKind(rawValue: op >> 5) {
            case .push: return .push(destination)
            case .present: return .present(destination)
            case .openDestination: return .open(.destination(destination))
            case .openPrintedURL, .none:
                let url: String
                if let known = printedURLs[tableIndex] {
                    url = known
                } else {
                    guard let printed = dictionary?.manifest.url(for: destination) else {
                        throw .invalid("step \(step) opens the printed URL of \(destination.name), which has none")
                    }
                    printedURLs[tableIndex] = printed
                    url = printed
                }
                printedLinks.append((step, destination))
                return .open(.url(url))
            }
        }
        switch op {
        case BodyCode.pop: return .pop
        case BodyCode.popToRoot: return .popToRoot
        case BodyCode.dismiss: return .dismiss
        case BodyCode.completeFailure: return .complete(success: false)
        case BodyCode.completeSuccess: return .complete(success: true)
        case BodyCode.openURL: return .open(.url(try Self.readInterned(&urls, &reader, "the URL of step \(step)")))
        default: break
        }
        let nibble = op & 0x0F
        switch op & 0xF0 {
        case BodyCode.select:
            return .select(tab: nibble == BodyCode.nibbleEscape ? try reader.signed("the tab of step \(step)") : Int64(nibble))
        case BodyCode.satisfy: return .satisfy(try readCondition(nibble, step: step))
        case BodyCode.revoke: return .revoke(try readCondition(nibble, step: step))
        default: throw .invalid("step \(step) has op byte 0x\(String(op, radix: 16)), which no encoder writes")
        }
    }

    /// The destination a step names, and its index in the destination table.
    private mutating func readDestinationSlot(_ slot: UInt8, step: Int) throws(Failure) -> (Destination, Int) {
        switch slot {
        case BodyCode.newSlot:
            let destination = try readNewDestination(depth: 0)
            return (destination, destinations.count - 1)
        case BodyCode.escapeSlot:
            let rest = try reader.index(
                "the destination of step \(step)", below: max(0, destinations.count - Int(BodyCode.foldedSlots)))
            let index = rest + Int(BodyCode.foldedSlots)
            return (destinations[index], index)
        default:
            let index = Int(slot) - 1
            guard index < destinations.count else {
                throw .invalid("step \(step) names destination \(index) but only \(destinations.count) are known")
            }
            return (destinations[index], index)
        }
    }

    private mutating func readCondition(_ nibble: UInt8, step: Int) throws(Failure) -> String {
        switch nibble {
        case 0:
            let condition = try reader.string("the condition of step \(step)")
            conditions.append(condition)
            return condition
        case BodyCode.nibbleEscape:
            let rest = try reader.index(
                "the condition of step \(step)", below: max(0, conditions.count - Int(BodyCode.nibbleEscape) + 1))
            return conditions[rest + Int(BodyCode.nibbleEscape) - 1]
        default:
            let index = Int(nibble) - 1
            guard index < conditions.count else {
                throw .invalid("step \(step) names condition \(index) but only \(conditions.count) are known")
            }
            return conditions[index]
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
        if nameNumber == 0 {
            name = try reader.string("a destination name")
            names.append(name)
        } else {
            guard nameNumber <= UInt64(names.count) else {
                throw .invalid("a destination names name \(nameNumber - 1) but only \(names.count) are known")
            }
            name = names[Int(nameNumber) - 1]
        }
        let nameBytes = Array(name.utf8)
        let shapeIndex: Int
        if flags != 0 {
            shapeIndex = expectedShapes[nameBytes] ?? 0
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
        }
        expectedShapes[nameBytes] = shapeIndex
        let shape = shapes[shapeIndex]
        var payload: [String: JSONValue] = [:]
        guard flags != BodyCode.NameFlag.allNumberedLikeLast || !shape.isEmpty else {
            throw .invalid("\(name) is flagged with numbered values but has no payload keys")
        }
        for key in shape {
            let place = nameBytes + [BodyCode.placeSeparator] + Array(key.utf8)
            if flags == BodyCode.NameFlag.allNumberedLikeLast {
                payload[key] = try readNumberedLikeLast(place: place)
            } else {
                payload[key] = try readValue(depth: depth + 1, place: place)
            }
        }
        guard payload.count == shape.count else { throw .invalid("the payload of \(name) repeats a key") }
        let destination = Destination(name, payload)
        destinations.append(destination)
        return destination
    }

    private mutating func readValue(depth: Int, place: [UInt8]) throws(Failure) -> JSONValue {
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
            for _ in 0..<count { array.append(try readValue(depth: depth + 1, place: place + [BodyCode.arrayElementMarker])) }
            return .array(array)
        case .object:
            let count = try reader.count("an object's key count", atMost: reader.remaining)
            var object: [String: JSONValue] = [:]
            for _ in 0..<count {
                let key = try Self.readInterned(&keys, &reader, "an object key")
                object[key] = try readValue(depth: depth + 1, place: place + [BodyCode.placeSeparator] + Array(key.utf8))
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
            lastNumbered[place] = (prefix, count)
            return try readNumberedString(prefix: prefix, count: count)
        }
    }

    private mutating func readNumberedLikeLast(place: [UInt8]) throws(Failure) -> JSONValue {
        guard let last = lastNumbered[place] else {
            throw .invalid("a numbered string repeats the form of one never seen at its place")
        }
        return try readNumberedString(prefix: last.prefix, count: last.count)
    }

    private mutating func readNumberedString(prefix: String, count: Int) throws(Failure) -> JSONValue {
        let packed = try raw.bytes(DecimalDigits.width(ofDigits: count), "a string's digits")
        guard let digits = DecimalDigits.unpack(packed, count: count) else {
            throw .invalid("a string's packed number has more than \(count) digits")
        }
        let string = prefix + String(decoding: digits, as: UTF8.self)
        strings.append(string)
        return .string(string)
    }

    private static func readInterned(_ table: inout [String], _ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(Failure) -> String {
        let reference = try reader.index(what(), below: table.count + 1)
        if reference > 0 { return table[reference - 1] }
        let string = try reader.string(what())
        table.append(string)
        return string
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
