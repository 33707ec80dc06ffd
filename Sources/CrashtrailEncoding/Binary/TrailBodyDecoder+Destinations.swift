import CrashtrailCore

/// The destinations and payload values a body spells out or refers to, and the tables they join.
extension TrailBodyDecoder {
    /// A destination by reference: 0 spells out a new one, else the table's destination `reference - 1`.
    mutating func readDestinationReference(_ what: @autoclosure () -> String) throws(ReadError) -> Destination {
        let reference = try reader.index(what(), below: destinations.count + 1)
        return reference == 0 ? try readNewDestination(depth: 0) : destinations[reference - 1]
    }

    /// A destination spelled out: its name (new or by reference) with flags, its shape, its values; it joins the
    /// destination table.
    mutating func readNewDestination(depth: Int) throws(ReadError) -> Destination {
        let nameReference = try reader.varint("a destination name")
        let flags = Int(nameReference & 3)
        guard flags != 2 else { throw .invalid("a destination's name reference has flags 2, which no encoder writes") }
        let (name, nameID) = try readName(number: nameReference >> 2)
        let shape = shapes[try readShapeIndex(flags: flags, nameID: nameID, name: name)]
        guard flags != BodyCode.NameFlag.allNumberedLikeLast || !shape.isEmpty else {
            throw .invalid("\(name) is flagged with numbered values but has no payload keys")
        }
        let destination = Destination(name, try readPayload(of: name, shape: shape, flags: flags, depth: depth))
        destinations.append(destination)
        return destination
    }

    /// A destination's name: spelled out when `number` is 0 (joining the name table), else the table's name
    /// `number - 1`; with the name's id, which names with the same bytes share.
    private mutating func readName(number: UInt64) throws(ReadError) -> (name: String, id: Int) {
        guard number == 0 else {
            guard number <= UInt64(names.count) else {
                throw .invalid("a destination names name \(number - 1) but only \(names.count) are known")
            }
            return (names[Int(number) - 1], nameIDs[Int(number) - 1])
        }
        let name = try reader.string("a destination name")
        let bytes = Array(name.utf8)
        let nameID: Int
        if let known = dictionary?.nameIDsByBytes[bytes] ?? bodyNameIDs[bytes] {
            nameID = known
        } else {
            nameID = names.count
            bodyNameIDs[bytes] = nameID
        }
        names.append(name)
        nameIDs.append(nameID)
        expectedShapes.append(-1)
        return (name, nameID)
    }

    /// The shape table index of a destination's payload: the one its name expects when the flags say so, else one
    /// given (new or by reference), which the name then expects.
    private mutating func readShapeIndex(flags: Int, nameID: Int, name: String) throws(ReadError) -> Int {
        if flags != 0 {
            if expectedShapes[nameID] < 0 { expectedShapes[nameID] = 0 }
            return expectedShapes[nameID]
        }
        let shapeReference = try reader.index("the payload shape of \(name)", below: shapes.count + 1)
        let shapeIndex: Int
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
        return shapeIndex
    }

    /// The payload of a destination named `name`: a value for each key of `shape`, read as the name's `flags` say.
    private mutating func readPayload(of name: String, shape: [String], flags: Int, depth: Int) throws(ReadError) -> [String: JSONValue] {
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
        return payload
    }

    /// The value of a payload key at `place`, read as the destination's name `flags` say.
    private mutating func readPayloadValue(flags: Int, depth: Int, place: Place) throws(ReadError) -> JSONValue {
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

    private mutating func readValue(depth: Int, place: Place) throws(ReadError) -> JSONValue {
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

    private mutating func readNumberedLikeLast(place: Place) throws(ReadError) -> JSONValue {
        guard let last = lastNumbered[place.bytes] else {
            throw .invalid("a numbered string repeats the form of one never seen at its place")
        }
        return try readNumberedString(prefix: last.prefix, count: last.count)
    }

    private mutating func readNumberedString(prefix: String, count: Int) throws(ReadError) -> JSONValue {
        let packed = try rawBytes(DecimalDigits.width(ofDigits: count), "a string's digits")
        guard let digits = DecimalDigits.unpack(packed, count: count) else {
            throw .invalid("a string's packed number has more than \(count) digits")
        }
        let string = prefix + String(decoding: digits, as: UTF8.self)
        strings.append(string)
        return .string(string)
    }

    static func readInterned(
        _ table: inout [String], _ reader: inout ByteReader, _ what: @autoclosure () -> String
    ) throws(ReadError) -> String {
        table[try readInternedIndex(&table, &reader, what())]
    }

    /// The table index of an interned string, reading a new one into the table.
    static func readInternedIndex(
        _ table: inout [String], _ reader: inout ByteReader, _ what: @autoclosure () -> String
    ) throws(ReadError) -> Int {
        let reference = try reader.index(what(), below: table.count + 1)
        if reference > 0 { return reference - 1 }
        let string = try reader.string(what())
        table.append(string)
        return table.count - 1
    }
}
