import CrashtrailCore

/// Writes a trail's body (docs/ENCODING.md, "Body"): the trail's fields, then the steps as three columns (op
/// bytes, their arguments, time deltas), with destinations, names, keys, shapes and strings interned.
struct TrailBodyEncoder {
    private let dictionary: ManifestDictionary?
    private var destinations: InternTable
    private var names: InternTable
    private var keys: InternTable
    private var shapes: [[[UInt8]]: Int] = [:]
    private var shapeCount = 0
    private var expectedShapes: [[UInt8]: Int]
    private var lastNumbered: [[UInt8]: (prefix: [UInt8], count: Int)] = [:]
    private var strings = InternTable()
    private var prefixes = InternTable()
    private var conditions: InternTable
    private var urls = InternTable()
    /// The raw column: bytes that are close to random (session UUID, packed digits, low bytes of times),
    /// kept apart from the structure so each gets deflate codes fitted to it.
    private var raw = ByteWriter()
    private var printedURLs: [[UInt8]: Destination?] = [:]

    /// The format version whose body this writes: 2, or 1 to make the trails older builds wrote (for tests of
    /// reading them).
    private let formatVersion: UInt8

    init(dictionary: ManifestDictionary?, formatVersion: UInt8 = TrailHeader.currentVersion) {
        self.dictionary = dictionary
        self.formatVersion = formatVersion
        destinations = InternTable(seeds: (dictionary?.destinations ?? []).map { CanonicalJSON.bytes(of: $0.jsonValue) })
        names = InternTable(seeds: (dictionary?.names ?? []).map { Array($0.utf8) })
        keys = InternTable(seeds: (dictionary?.keys ?? []).map { Array($0.utf8) })
        conditions = InternTable(seeds: (dictionary?.conditions ?? []).map { Array($0.utf8) })
        expectedShapes = dictionary?.expectedShapes ?? [:]
        for shape in dictionary?.shapes ?? [[]] {
            shapes[shape.map { Array($0.utf8) }] = shapeCount
            shapeCount += 1
        }
    }

    /// The body of `trail` in format version 2 (docs/ENCODING.md, "Body"): the structure, deflated, and the raw
    /// column, stored as it is after the deflate stream.
    struct Body {
        var structure: [UInt8]
        var raw: [UInt8]
        /// Where the structure's sections end (fields and ops, arguments, the rest): deflate ends a block at each.
        var sectionEnds: [Int]

        /// What goes into the deflate stream, where deflate ends a block in it, and what follows the stream.
        struct Layout {
            var deflated: [UInt8]
            var blockEnds: [Int]
            var after: [UInt8]
        }

        /// Format version 2 as it usually is: the structure deflated, the raw column after the stream.
        var rawAfterStream: Layout { Layout(deflated: structure, blockEnds: sectionEnds, after: raw) }

        /// Format version 2 with the raw column inside the stream (``BodyCode/Field/rawIsDeflated``): the fields byte
        /// with that flag, the forms byte, the raw column's length, the rest of the structure, the raw column.
        var rawInside: Layout { insertingRaw(afterHead: 2, flag: BodyCode.Field.rawIsDeflated) }

        /// Format version 1's body (for a body written with `formatVersion` 1): the fields byte, the raw column's
        /// length, the rest of the structure, the raw column.
        var version1: Layout { insertingRaw(afterHead: 1, flag: 0) }

        /// The structure with the raw column's length after its first `head` bytes, `flag` set in its fields byte,
        /// and the raw column at its end.
        private func insertingRaw(afterHead head: Int, flag: UInt8) -> Layout {
            var length = ByteWriter()
            length.varint(raw.count)
            let bytes = [structure[0] | flag] + structure[1..<head] + length.bytes + structure.dropFirst(head) + raw
            let shift = length.bytes.count
            return Layout(deflated: bytes, blockEnds: sectionEnds.map { $0 + shift } + [structure.count + shift], after: [])
        }
    }

    /// The body of `trail`.
    mutating func encode(_ trail: Trail) -> Body {
        var out = ByteWriter(capacity: 64 + trail.steps.count * 4)
        var fields: UInt8 = 0
        let manifest = dictionary?.manifest
        let launch = manifest.map { CanonicalJSON.bytes(of: $0.launchState.jsonValue) }
        if let base = trail.base {
            fields |= BodyCode.Field.hasBase
            if let launch, CanonicalJSON.bytes(of: base.jsonValue) == launch { fields |= BodyCode.Field.baseIsLaunchState }
        }
        if let final = trail.final {
            fields |= BodyCode.Field.hasFinal
            if let manifest, Self.canReplay(trail.steps, manifest: manifest) {
                var engine = NavigationEngine(manifest: manifest, state: trail.base ?? manifest.launchState)
                _ = engine.apply(trail.steps)
                if CanonicalJSON.bytes(of: engine.state.jsonValue) == CanonicalJSON.bytes(of: final.jsonValue) {
                    fields |= BodyCode.Field.finalIsReplayed
                }
            }
        }
        if let manifest, manifest.app.utf8.elementsEqual(trail.app.bundleID.utf8) {
            fields |= BodyCode.Field.bundleIDIsManifestApp
        }
        let uuid = CompactFields.uuidBytes(trail.session.id)
        if let uuid { fields |= uuid.upper ? BodyCode.Field.sessionIDUpperUUID : BodyCode.Field.sessionIDLowerUUID }
        if formatVersion == 1 {
            let seconds = CompactFields.seconds(ofTimestamp: trail.session.started)
            if seconds != nil { fields |= BodyCode.Field.startedIsSeconds }
            out.byte(fields)
            if fields & BodyCode.Field.bundleIDIsManifestApp == 0 { out.string(trail.app.bundleID) }
            out.string(trail.app.version)
            out.string(trail.app.build)
            if let uuid { raw.append(uuid.bytes) } else { out.string(trail.session.id) }
            if let seconds { out.signed(seconds) } else { out.string(trail.session.started) }
        } else {
            out.byte(fields)
            let version = CompactFields.dottedNumbers(trail.app.version)
            let build = CompactFields.dottedNumbers(trail.app.build)
            let started = CompactFields.started(trail.session.started)
            out.byte(
                UInt8(version?.count ?? 0) << BodyCode.Forms.versionShift | UInt8(build?.count ?? 0) << BodyCode.Forms.buildShift
                    | (started?.form ?? .text).rawValue << BodyCode.Forms.startedShift)
            if fields & BodyCode.Field.bundleIDIsManifestApp == 0 { out.string(trail.app.bundleID) }
            if let version {
                for number in version { out.varint(number) }
            } else {
                out.string(trail.app.version)
            }
            if let build {
                for number in build { out.varint(number) }
            } else {
                out.string(trail.app.build)
            }
            if let uuid { raw.append(uuid.bytes) } else { out.string(trail.session.id) }
            if let started { out.varint(started.value) } else { out.string(trail.session.started) }
        }
        out.signed(trail.session.pid)
        if formatVersion >= TrailHeader.endedVersion {
            out.byte(BodyCode.ending(trail.session.ended))
            out.varint(UInt64(trail.session.sampleRate?.billionths ?? 0))
        }
        out.varint(UInt64(max(trail.dropped, 0)))
        if let base = trail.base, fields & BodyCode.Field.baseIsLaunchState == 0 { writeState(base, into: &out) }

        var sectionEnds: [Int] = []
        out.varint(trail.steps.count)
        sectionEnds.append(out.bytes.count)
        var arguments = ByteWriter(capacity: trail.steps.count * 2)
        for step in trail.steps { out.byte(writeStep(step.op, arguments: &arguments)) }
        sectionEnds.append(out.bytes.count)
        out.append(arguments.bytes)
        sectionEnds.append(out.bytes.count)
        // Time deltas in two columns: the high parts (delta >> 8) as varints, mostly small and skewed, then the
        // low bytes, nearly uniform, in the raw column.
        // The codec validated the times first: they never decrease, so deltas are never negative.
        var previous: Int64 = 0
        var lows: [UInt8] = []
        lows.reserveCapacity(trail.steps.count)
        for step in trail.steps {
            let delta = UInt64(step.t &- previous)
            out.varint(delta >> 8)
            lows.append(UInt8(truncatingIfNeeded: delta))
            previous = step.t
        }
        raw.append(lows)
        if let final = trail.final, fields & BodyCode.Field.finalIsReplayed == 0 { writeState(final, into: &out) }
        return Body(structure: out.bytes, raw: raw.bytes, sectionEnds: sectionEnds)
    }

    /// Whether replaying `steps` stays far from integer overflow (the engine adds the modal transition to `t`).
    static func canReplay(_ steps: [Step], manifest: Manifest) -> Bool {
        let bound = Int64.max / 4
        return (0...bound).contains(manifest.modalTransition) && (steps.last?.t ?? 0) <= bound
    }

    /// The op byte of `op`, its arguments appended to `arguments`.
    private mutating func writeStep(_ op: Step.Operation, arguments: inout ByteWriter) -> UInt8 {
        switch op {
        case .push(let destination): return destinationOp(.push, destination, &arguments)
        case .present(let destination): return destinationOp(.present, destination, &arguments)
        case .open(.destination(let destination)): return destinationOp(.openDestination, destination, &arguments)
        case .open(.url(let url)):
            if let destination = printedDestination(of: url) {
                return destinationOp(.openPrintedURL, destination, &arguments)
            }
            writeInterned(url, table: &urls, into: &arguments)
            return BodyCode.openURL
        case .pop: return BodyCode.pop
        case .popToRoot: return BodyCode.popToRoot
        case .dismiss: return BodyCode.dismiss
        case .complete(let success): return success ? BodyCode.completeSuccess : BodyCode.completeFailure
        case .select(let tab):
            if (0..<Int64(BodyCode.nibbleEscape)).contains(tab) { return BodyCode.select | UInt8(tab) }
            arguments.signed(tab)
            return BodyCode.select | BodyCode.nibbleEscape
        case .satisfy(let condition): return conditionOp(BodyCode.satisfy, condition, &arguments)
        case .revoke(let condition): return conditionOp(BodyCode.revoke, condition, &arguments)
        }
    }

    /// The destination whose printed URL is exactly `url`, remembered per URL because parsing is the
    /// costliest part of encoding and popular links recur.
    private mutating func printedDestination(of url: String) -> Destination? {
        guard let manifest = dictionary?.manifest else { return nil }
        let key = Array(url.utf8)
        if let known = printedURLs[key] { return known }
        var result: Destination?
        if let destination = manifest.destination(forURL: url), let printed = manifest.url(for: destination),
            Array(printed.utf8) == key
        {
            result = destination
        }
        printedURLs[key] = .some(result)
        return result
    }

    private mutating func destinationOp(
        _ kind: BodyCode.DestinationKind, _ destination: Destination, _ arguments: inout ByteWriter
    ) -> UInt8 {
        let key = CanonicalJSON.bytes(of: destination.jsonValue)
        let slot: UInt8
        if let index = destinations.index(of: key) {
            if index < Int(BodyCode.foldedSlots) {
                slot = UInt8(index + 1)
            } else {
                slot = BodyCode.escapeSlot
                arguments.varint(index - Int(BodyCode.foldedSlots))
            }
        } else {
            slot = BodyCode.newSlot
            writeNewDestination(destination, key: key, into: &arguments)
        }
        return kind.rawValue << 5 | slot
    }

    private mutating func conditionOp(_ base: UInt8, _ condition: String, _ arguments: inout ByteWriter) -> UInt8 {
        let key = Array(condition.utf8)
        guard let index = conditions.index(of: key) else {
            _ = conditions.insert(key)
            arguments.string(condition)
            return base
        }
        if index < Int(BodyCode.nibbleEscape) - 1 { return base | UInt8(index + 1) }
        arguments.varint(index - (Int(BodyCode.nibbleEscape) - 1))
        return base | BodyCode.nibbleEscape
    }

    /// A destination in a state: 0 and the destination when new, else its table index + 1.
    private mutating func writeDestinationReference(_ destination: Destination, into out: inout ByteWriter) {
        let key = CanonicalJSON.bytes(of: destination.jsonValue)
        if let index = destinations.index(of: key) {
            out.varint(index + 1)
        } else {
            out.varint(0)
            writeNewDestination(destination, key: key, into: &out)
        }
    }

    private mutating func writeNewDestination(_ destination: Destination, key: [UInt8], into out: inout ByteWriter) {
        _ = destinations.insert(key)
        let name = Array(destination.name.utf8)
        let sortedKeys = CanonicalJSON.sortedKeys(destination.payload)
        let shape = sortedKeys.map { Array($0.utf8) }
        let shapeIndex = shapes[shape]
        let isExpected = shapeIndex != nil && shapeIndex == (expectedShapes[name] ?? 0)
        // The shape and values are written aside first: the name reference's flags depend on them.
        var rest = ByteWriter()
        if let shapeIndex {
            if !isExpected { rest.varint(shapeIndex + 1) }
            expectedShapes[name] = shapeIndex
        } else {
            shapes[shape] = shapeCount
            expectedShapes[name] = shapeCount
            shapeCount += 1
            rest.varint(BodyCode.newShape)
            rest.varint(sortedKeys.count)
            for key in sortedKeys { writeInterned(key, table: &keys, into: &rest) }
        }
        var values = ByteWriter()
        var valueStarts: [Int] = []
        for key in sortedKeys {
            valueStarts.append(values.bytes.count)
            writeValue(destination.payload[key] ?? .null, place: name + [BodyCode.placeSeparator] + Array(key.utf8), into: &values)
        }
        let allLikeLast =
            isExpected && !valueStarts.isEmpty
            && valueStarts.allSatisfy { values.bytes[$0] == BodyCode.Value.numberedLikeLast.rawValue }
        let flags = allLikeLast ? BodyCode.NameFlag.allNumberedLikeLast : isExpected ? BodyCode.NameFlag.expectedShape : 0
        let (nameIndex, isNewName) = names.insert(name)
        out.varint(UInt64((isNewName ? 0 : nameIndex + 1) * 4 + flags))
        if isNewName {
            out.varint(name.count)
            out.append(name)
        }
        out.append(rest.bytes)
        if allLikeLast {
            // Every value is a numbered string like the last at its place: only the packed digits remain.
            let starts = Set(valueStarts)
            for (offset, byte) in values.bytes.enumerated() where !starts.contains(offset) { out.byte(byte) }
        } else {
            out.append(values.bytes)
        }
    }

    /// A payload value; `place` (destination name and key path) keys the memory of numbered strings.
    private mutating func writeValue(_ value: JSONValue, place: [UInt8], into out: inout ByteWriter) {
        switch value {
        case .null: out.byte(BodyCode.Value.null.rawValue)
        case .bool(let bool): out.byte(bool ? BodyCode.Value.true.rawValue : BodyCode.Value.false.rawValue)
        case .int(let int):
            out.byte(BodyCode.Value.int.rawValue)
            out.signed(int)
        case .string(let string):
            let key = Array(string.utf8)
            let (index, isNew) = strings.insert(key)
            if !isNew {
                out.byte(BodyCode.Value.stringReference.rawValue)
                out.varint(index)
            } else if let start = DecimalDigits.trailingRunStart(key) {
                let prefix = Array(key[..<start])
                let count = key.count - start
                if let last = lastNumbered[place], last.prefix == prefix, last.count == count {
                    out.byte(BodyCode.Value.numberedLikeLast.rawValue)
                } else {
                    out.byte(BodyCode.numberedStringBase + UInt8(count))
                    writeInterned(bytes: prefix, table: &prefixes, into: &out)
                    lastNumbered[place] = (prefix, count)
                }
                raw.append(DecimalDigits.pack(key[start...]))
            } else {
                out.byte(BodyCode.Value.newString.rawValue)
                out.varint(key.count)
                out.append(key)
            }
        case .array(let array):
            out.byte(BodyCode.Value.array.rawValue)
            out.varint(array.count)
            for element in array { writeValue(element, place: place + [BodyCode.arrayElementMarker], into: &out) }
        case .object(let object):
            out.byte(BodyCode.Value.object.rawValue)
            let sortedKeys = CanonicalJSON.sortedKeys(object)
            out.varint(sortedKeys.count)
            for key in sortedKeys {
                writeInterned(key, table: &keys, into: &out)
                writeValue(object[key] ?? .null, place: place + [BodyCode.placeSeparator] + Array(key.utf8), into: &out)
            }
        }
    }

    private func writeInterned(_ string: String, table: inout InternTable, into out: inout ByteWriter) {
        writeInterned(bytes: Array(string.utf8), table: &table, into: &out)
    }

    /// 0 and the string when new, else its table index + 1.
    private func writeInterned(bytes: [UInt8], table: inout InternTable, into out: inout ByteWriter) {
        let (index, isNew) = table.insert(bytes)
        if isNew {
            out.varint(0)
            out.varint(bytes.count)
            out.append(bytes)
        } else {
            out.varint(index + 1)
        }
    }

    private mutating func writeState(_ state: NavigationState, into out: inout ByteWriter) {
        out.varint(state.tab.map { $0 + 1 } ?? 0)
        for stacks in [state.stacks, state.modals] {
            out.varint(stacks.count)
            for stack in stacks {
                out.varint(stack.count)
                for destination in stack { writeDestinationReference(destination, into: &out) }
            }
        }
        let sortedConditions = state.sortedConditions
        out.varint(sortedConditions.count)
        for condition in sortedConditions {
            let key = Array(condition.utf8)
            let (index, isNew) = conditions.insert(key)
            if isNew {
                out.varint(0)
                out.string(condition)
            } else {
                out.varint(index + 1)
            }
        }
        if let pending = state.pending {
            let modes: [RequestMode] = [.push, .present, .open]
            out.byte(UInt8((modes.firstIndex(of: pending.mode) ?? 0) + 1))
            writeDestinationReference(pending.destination, into: &out)
        } else {
            out.byte(BodyCode.noPending)
        }
    }
}
