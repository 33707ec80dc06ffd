import CrashtrailCore
import CrashtrailTestSupport
import Foundation

/// A decoder of the binary trail written from `docs/ENCODING.md` alone, as an oracle for the production decoder.
///
/// Plain and slow on purpose, and sharing nothing with the production code of the format: its own byte reading,
/// varints, tables, digit unpacking, UUID and date printing, CRC-32, and the navigation rules of ``SpecEngine`` for a
/// replayed `final`. It uses the manifest's data (destinations, templates, conditions) and URL printer, and only the
/// inflate of the deflate stream (RFC 1951, not this project's format) comes from elsewhere (the caller hands it the
/// inflated body).
struct IndependentTrailDecoder {
    struct RequestError: Error, CustomStringConvertible {
        var description: String
    }

    /// The header fields the document lists, in order.
    struct Header {
        var version: UInt8
        var hasDictionary: Bool
        var dictionaryID: UInt32
        var bodyLength: Int
        var checksum: UInt32
        /// Where the deflate stream starts.
        var bodyStart: Int
    }

    /// Reads the header of a binary trail.
    static func header(_ bytes: [UInt8]) throws -> Header {
        var cursor = Cursor(bytes)
        guard try cursor.byte() == 0xC7, try cursor.byte() == 0x54 else { throw RequestError(description: "wrong magic") }
        let version = try cursor.byte()
        let hasDictionary: Bool
        var length = 0
        switch version {
        case 1:
            let flags = try cursor.byte()
            guard flags & ~1 == 0 else { throw RequestError(description: "unknown flags") }
            hasDictionary = flags & 1 != 0
        case 2:
            let lengthAndFlag = try cursor.int()
            hasDictionary = lengthAndFlag % 2 == 1
            length = lengthAndFlag / 2
        default: throw RequestError(description: "unknown version")
        }
        var dictionaryID: UInt32 = 0
        if hasDictionary {
            for _ in 0..<4 { dictionaryID = dictionaryID << 8 | UInt32(try cursor.byte()) }
        }
        if version == 1 { length = try cursor.int() }
        var checksum: UInt32 = 0
        for _ in 0..<4 { checksum = checksum << 8 | UInt32(try cursor.byte()) }
        return Header(
            version: version, hasDictionary: hasDictionary, dictionaryID: dictionaryID, bodyLength: length, checksum: checksum,
            bodyStart: cursor.offset)
    }

    /// CRC-32 (ISO-HDLC, as gzip), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: The body

    let manifest: Manifest?
    private var structure = Cursor([])
    private var raw = Cursor([])
    private var destinations: [Destination] = []
    private var names: [String] = []
    private var keys: [String] = []
    private var shapes: [[String]] = [[]]
    /// The shape each name (by its UTF-8 bytes) expects: its template's keys, or the last shape given with it.
    private var expectedShape: [[UInt8]: Int] = [:]
    private var conditions: [String] = []
    private var strings: [String] = []
    private var prefixes: [String] = []
    private var urls: [String] = []
    /// The last numbered string's prefix and digit count at each place (name, key path).
    private var lastNumbered: [[UInt8]: (String, Int)] = [:]

    /// The tables the document says a manifest starts them with.
    init(manifest: Manifest?) {
        self.manifest = manifest
        guard let manifest else { return }
        for spec in manifest.destinations {
            names.append(spec.name)
            let placeholders = spec.route?.placeholders ?? []
            if placeholders.isEmpty {
                destinations.append(Destination(spec.name))
                continue
            }
            for placeholder in placeholders {
                for key in placeholder.path where !keys.contains(where: { Array($0.utf8) == Array(key.utf8) }) { keys.append(key) }
            }
            var shape: [[UInt8]] = []
            for placeholder in placeholders {
                let top = Array(placeholder.path[0].utf8)
                if !shape.contains(top) { shape.append(top) }
            }
            shape.sort { $0.lexicographicallyPrecedes($1) }
            let strings = shape.map { String(decoding: $0, as: UTF8.self) }
            var index = shapes.firstIndex { $0.map { Array($0.utf8) } == shape } ?? -1
            if index < 0 {
                shapes.append(strings)
                index = shapes.count - 1
            }
            if expectedShape[Array(spec.name.utf8)] == nil { expectedShape[Array(spec.name.utf8)] = index }
        }
        conditions = manifest.conditions.map(\.name)
    }

    /// Decodes a version 1 body (raw column inside it) into the trail it holds.
    mutating func decode(version1Body body: [UInt8]) throws -> Trail {
        var head = Cursor(body)
        let fields = try head.byte()
        let rawLength = try head.int()
        guard rawLength <= body.count - head.offset else { throw RequestError(description: "raw column longer than the body") }
        structure = Cursor(Array(body[head.offset..<(body.count - rawLength)]))
        raw = Cursor(Array(body[(body.count - rawLength)...]))
        return try decode(version: 1, fields: fields, forms: 0)
    }

    /// Decodes a version 2 body: the inflated structure, and the raw column that followed the deflate stream.
    mutating func decode(structure: [UInt8], raw: [UInt8]) throws -> Trail {
        self.structure = Cursor(structure)
        self.raw = Cursor(raw)
        let fields = try self.structure.byte()
        if fields & 0x20 != 0 {
            // The raw column is inside the stream: its length follows the forms byte, and nothing follows the stream.
            guard raw.isEmpty else { throw RequestError(description: "bytes after a stream holding the raw column") }
            let forms = try self.structure.byte()
            let rawLength = try self.structure.int()
            let rest = Array(structure[self.structure.offset...])
            guard rawLength <= rest.count else { throw RequestError(description: "raw column longer than the body") }
            self.structure = Cursor(Array(rest[..<(rest.count - rawLength)]))
            self.raw = Cursor(Array(rest[(rest.count - rawLength)...]))
            return try decode(version: 2, fields: fields, forms: forms)
        }
        return try decode(version: 2, fields: fields, forms: try self.structure.byte())
    }

    private mutating func decode(version formatVersion: UInt8, fields: UInt8, forms: UInt8) throws -> Trail {
        let needsManifest: UInt8 = 0x04 | 0x40 | 0x80
        if manifest == nil, fields & needsManifest != 0 { throw RequestError(description: "needs a manifest") }
        if fields & 0x18 == 0x18 { throw RequestError(description: "UUID both cases") }

        let bundleID = fields & 0x04 != 0 ? manifest?.app ?? "" : try structure.string()
        let version = try dotted(count: forms & 7)
        let build = try dotted(count: forms >> 3 & 7)
        let sessionID: String
        if fields & 0x18 != 0 {
            let hex = Array((fields & 0x08 != 0 ? "0123456789ABCDEF" : "0123456789abcdef"))
            var text = ""
            for index in 0..<16 {
                if [4, 6, 8, 10].contains(index) { text += "-" }
                let byte = try raw.byte()
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 15)])
            }
            sessionID = text
        } else {
            sessionID = try structure.string()
        }
        let started: String
        switch (formatVersion, forms >> 6) {
        case (1, _): started = fields & 0x20 != 0 ? try Self.dateText(secondsSince2020: try structure.signed()) : try structure.string()
        case (_, 0): started = try structure.string()
        case (_, 1):
            // 2020 to 2024: 366 + 365 + 365 + 365 days.
            let seconds = try structure.varint()
            guard seconds < 1 << 62 else { throw RequestError(description: "start out of range") }
            started = try Self.dateText(secondsSince2020: Int64(seconds) + 1_461 * 86_400)
        case (_, 2):
            let milliseconds = try structure.varint()
            let text = try Self.dateText(secondsSince2020: Int64(milliseconds / 1_000) + 1_461 * 86_400)
            let fraction = String(milliseconds % 1_000)
            started = text.dropLast() + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
        default: throw RequestError(description: "start form 3")
        }
        let pid = try structure.signed()
        let dropped = try structure.varint()
        guard dropped <= UInt64(Int64.max) else { throw RequestError(description: "dropped overflows") }

        var base: NavigationState?
        if fields & 0x01 != 0 {
            base = fields & 0x40 != 0 ? SpecEngine(manifest: try requireManifest()).state : try readState()
        } else if fields & 0x40 != 0 {
            throw RequestError(description: "launch-state flag without a base")
        }

        let count = try structure.int()
        guard count <= structure.remaining else { throw RequestError(description: "more steps than bytes") }
        var ops: [UInt8] = []
        for _ in 0..<count { ops.append(try structure.byte()) }
        var operations: [Step.Operation] = []
        var replayOperations: [Step.Operation] = []
        for (index, op) in ops.enumerated() {
            let (operation, replayed) = try readArguments(op: op, step: index)
            operations.append(operation)
            replayOperations.append(replayed)
        }
        var highs: [UInt64] = []
        for _ in 0..<count { highs.append(try structure.varint()) }
        var steps: [Step] = []
        var replaySteps: [Step] = []
        var t: Int64 = 0
        for index in 0..<count {
            guard highs[index] <= UInt64(Int64.max) >> 8 else { throw RequestError(description: "time overflows") }
            let delta = Int64(highs[index] << 8) | Int64(try raw.byte())
            let (sum, overflow) = t.addingReportingOverflow(delta)
            guard !overflow else { throw RequestError(description: "time overflows") }
            t = sum
            steps.append(Step(t: t, operations[index]))
            replaySteps.append(Step(t: t, replayOperations[index]))
        }

        var final: NavigationState?
        if fields & 0x02 != 0 {
            if fields & 0x80 != 0 {
                let manifest = try requireManifest()
                var engine = SpecEngine(manifest: manifest, state: base)
                engine.apply(replaySteps)
                final = engine.state
            } else {
                final = try readState()
            }
        } else if fields & 0x80 != 0 {
            throw RequestError(description: "replayed-final flag without a final")
        }
        guard structure.remaining == 0, raw.remaining == 0 else { throw RequestError(description: "bytes left over") }
        return Trail(
            app: .init(bundleID: bundleID, version: version, build: build), session: .init(id: sessionID, started: started, pid: pid),
            base: base, dropped: Int64(dropped), steps: steps, final: final)
    }

    /// `count` varints joined by dots, or a string when `count` is 0.
    private mutating func dotted(count: UInt8) throws -> String {
        guard count > 0 else { return try structure.string() }
        var parts: [String] = []
        for _ in 0..<count { parts.append(String(try structure.varint())) }
        return parts.joined(separator: ".")
    }

    private func requireManifest() throws -> Manifest {
        guard let manifest else { throw RequestError(description: "needs a manifest") }
        return manifest
    }

    /// A step's arguments; returns the step's op and the op replay applies (an open of a printed URL opens the
    /// destination it was printed from).
    private mutating func readArguments(op: UInt8, step: Int) throws -> (Step.Operation, Step.Operation) {
        if op < 0x80 {
            let slot = Int(op & 31)
            let index: Int
            switch slot {
            case 0:
                _ = try readNewDestination()
                index = destinations.count - 1
            case 31: index = try structure.int() + 30
            default: index = slot - 1
            }
            guard index < destinations.count else { throw RequestError(description: "step \(step): no destination \(index)") }
            let destination = destinations[index]
            switch op >> 5 {
            case 0: return (.push(destination), .push(destination))
            case 1: return (.present(destination), .present(destination))
            case 2: return (.open(.destination(destination)), .open(.destination(destination)))
            default:
                guard let url = manifest?.url(for: destination) else { throw RequestError(description: "step \(step): no printed URL") }
                return (.open(.url(url)), .open(.destination(destination)))
            }
        }
        switch op {
        case 0x80: return (.pop, .pop)
        case 0x81: return (.popToRoot, .popToRoot)
        case 0x82: return (.dismiss, .dismiss)
        case 0x83: return (.complete(success: false), .complete(success: false))
        case 0x84: return (.complete(success: true), .complete(success: true))
        case 0x85:
            let url = try interned(\.urls)
            return (.open(.url(url)), .open(.url(url)))
        default: break
        }
        let n = Int(op & 15)
        switch op & 0xF0 {
        case 0x90:
            let tab = n == 15 ? try structure.signed() : Int64(n)
            return (.select(tab: tab), .select(tab: tab))
        case 0xA0, 0xB0:
            let condition: String
            switch n {
            case 0:
                condition = try structure.string()
                conditions.append(condition)
            case 15:
                let index = try structure.int() + 14
                guard index < conditions.count else { throw RequestError(description: "step \(step): no condition \(index)") }
                condition = conditions[index]
            default:
                guard n - 1 < conditions.count else { throw RequestError(description: "step \(step): no condition \(n - 1)") }
                condition = conditions[n - 1]
            }
            return op & 0xF0 == 0xA0 ? (.satisfy(condition), .satisfy(condition)) : (.revoke(condition), .revoke(condition))
        default:
            throw RequestError(description: "step \(step): op byte \(op)")
        }
    }

    /// A new destination: its name reference with flags, its shape, its values; it joins the destination table.
    private mutating func readNewDestination() throws -> Destination {
        let reference = try structure.varint()
        let flags = Int(reference % 4)
        let nameNumber = Int(reference / 4)
        guard flags != 2 else { throw RequestError(description: "name flags 2") }
        let name: String
        if nameNumber == 0 {
            name = try structure.string()
            names.append(name)
        } else {
            guard nameNumber - 1 < names.count else { throw RequestError(description: "no name \(nameNumber - 1)") }
            name = names[nameNumber - 1]
        }
        let nameBytes = Array(name.utf8)
        let shape: [String]
        if flags == 0 {
            let shapeReference = try structure.int()
            if shapeReference == 0 {
                let keyCount = try structure.int()
                guard keyCount <= structure.remaining else { throw RequestError(description: "more keys than bytes") }
                var newShape: [String] = []
                for _ in 0..<keyCount { newShape.append(try interned(\.keys)) }
                shapes.append(newShape)
                expectedShape[nameBytes] = shapes.count - 1
            } else {
                guard shapeReference - 1 < shapes.count else { throw RequestError(description: "no shape \(shapeReference - 1)") }
                expectedShape[nameBytes] = shapeReference - 1
            }
            shape = shapes[expectedShape[nameBytes] ?? 0]
        } else {
            // The expected shape; a name that expects none expects the empty shape from now on.
            let index = expectedShape[nameBytes] ?? 0
            expectedShape[nameBytes] = index
            shape = shapes[index]
        }
        if flags == 3, shape.isEmpty { throw RequestError(description: "numbered flags with no keys") }
        var payload: [String: JSONValue] = [:]
        for key in shape {
            let place = nameBytes + [0xFF] + Array(key.utf8)
            let value = flags == 3 ? try numberedLikeLast(place: place) : try readValue(place: place, depth: 1)
            guard payload[key] == nil else { throw RequestError(description: "repeated key \(key)") }
            payload[key] = value
        }
        let destination = Destination(name, payload)
        destinations.append(destination)
        return destination
    }

    private mutating func readValue(place: [UInt8], depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw RequestError(description: "too deep") }
        let tag = try structure.byte()
        switch tag {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return .int(try structure.signed())
        case 4:
            let string = try structure.string()
            strings.append(string)
            return .string(string)
        case 5:
            let index = try structure.int()
            guard index < strings.count else { throw RequestError(description: "no string \(index)") }
            return .string(strings[index])
        case 6:
            let count = try structure.int()
            guard count <= structure.remaining else { throw RequestError(description: "more keys than bytes") }
            var object: [String: JSONValue] = [:]
            for _ in 0..<count {
                let key = try interned(\.keys)
                let value = try readValue(place: place + [0xFF] + Array(key.utf8), depth: depth + 1)
                guard object[key] == nil else { throw RequestError(description: "repeated key \(key)") }
                object[key] = value
            }
            return .object(object)
        case 7:
            let count = try structure.int()
            guard count <= structure.remaining else { throw RequestError(description: "more values than bytes") }
            var array: [JSONValue] = []
            for _ in 0..<count { array.append(try readValue(place: place + [0xFE], depth: depth + 1)) }
            return .array(array)
        case 9: return try numberedLikeLast(place: place)
        case 17...80:
            let prefix = try interned(\.prefixes)
            let digits = Int(tag) - 16
            lastNumbered[place] = (prefix, digits)
            return try numberedString(prefix: prefix, digits: digits)
        default:
            throw RequestError(description: "value tag \(tag)")
        }
    }

    private mutating func numberedLikeLast(place: [UInt8]) throws -> JSONValue {
        guard let (prefix, digits) = lastNumbered[place] else { throw RequestError(description: "no numbered string before") }
        return try numberedString(prefix: prefix, digits: digits)
    }

    /// A prefix and `digits` decimal digits packed big-endian in the fewest bytes that hold any `digits`-digit number.
    private mutating func numberedString(prefix: String, digits: Int) throws -> JSONValue {
        // The fewest bytes b whose largest number, 256^b - 1, is at least the largest n-digit number, 10^n - 1.
        let largest = String(repeating: "9", count: digits)
        var width = 0
        while true {
            let most = Self.decimal(ofBytes: [UInt8](repeating: 0xFF, count: width))
            if most.count > digits || (most.count == digits && most >= largest) { break }
            width += 1
        }
        var packed: [UInt8] = []
        for _ in 0..<width { packed.append(try raw.byte()) }
        let number = Self.decimal(ofBytes: packed)
        guard number.count <= digits else { throw RequestError(description: "more digits than declared") }
        let text = prefix + String(repeating: "0", count: digits - number.count) + number
        strings.append(text)
        return .string(text)
    }

    /// The decimal digits of a big-endian unsigned number (no leading zeros; empty for zero).
    static func decimal(ofBytes bytes: [UInt8]) -> String {
        var number = bytes.map(Int.init)
        var digits: [Character] = []
        while number.contains(where: { $0 != 0 }) {
            var remainder = 0
            for index in number.indices {
                let value = remainder * 256 + number[index]
                number[index] = value / 10
                remainder = value % 10
            }
            digits.append(Character(String(remainder)))
        }
        return String(digits.reversed())
    }

    private mutating func readState() throws -> NavigationState {
        let tab = try structure.varint()
        var parts: [[[Destination]]] = []
        for _ in 0..<2 {
            let count = try structure.int()
            guard count <= structure.remaining else { throw RequestError(description: "more stacks than bytes") }
            var stacks: [[Destination]] = []
            for _ in 0..<count {
                let depth = try structure.int()
                guard depth <= structure.remaining else { throw RequestError(description: "more screens than bytes") }
                var stack: [Destination] = []
                for _ in 0..<depth { stack.append(try destinationReference()) }
                stacks.append(stack)
            }
            parts.append(stacks)
        }
        let conditionCount = try structure.int()
        guard conditionCount <= structure.remaining else { throw RequestError(description: "more conditions than bytes") }
        var satisfied: Set<String> = []
        for _ in 0..<conditionCount {
            let reference = try structure.int()
            if reference == 0 {
                let condition = try structure.string()
                conditions.append(condition)
                satisfied.insert(condition)
            } else {
                guard reference - 1 < conditions.count else { throw RequestError(description: "no condition \(reference - 1)") }
                satisfied.insert(conditions[reference - 1])
            }
        }
        let mode = try structure.byte()
        var pending: PendingDestination?
        switch mode {
        case 0: pending = nil
        case 1: pending = PendingDestination(try destinationReference(), mode: .push)
        case 2: pending = PendingDestination(try destinationReference(), mode: .present)
        case 3: pending = PendingDestination(try destinationReference(), mode: .open)
        default: throw RequestError(description: "pending mode \(mode)")
        }
        guard tab <= UInt64(parts[0].count) else { throw RequestError(description: "tab out of range") }
        return NavigationState(
            tab: tab == 0 ? nil : Int(tab - 1), stacks: parts[0], modals: parts[1], conditions: satisfied, pending: pending)
    }

    private mutating func destinationReference() throws -> Destination {
        let reference = try structure.int()
        if reference == 0 { return try readNewDestination() }
        guard reference - 1 < destinations.count else { throw RequestError(description: "no destination \(reference - 1)") }
        return destinations[reference - 1]
    }

    /// An interned string: 0 and a new string, which joins `table`, else the table's index + 1.
    private mutating func interned(_ table: WritableKeyPath<Self, [String]>) throws -> String {
        let reference = try structure.int()
        if reference == 0 {
            let string = try structure.string()
            self[keyPath: table].append(string)
            return string
        }
        guard reference - 1 < self[keyPath: table].count else { throw RequestError(description: "no table entry \(reference - 1)") }
        return self[keyPath: table][reference - 1]
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of seconds since 2020-01-01T00:00:00Z, counting days year by year and month by month.
    static func dateText(secondsSince2020 seconds: Int64) throws -> String {
        guard seconds > -70_000_000_000, seconds < 260_000_000_000 else { throw RequestError(description: "start out of range") }
        var days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
        var year: Int64 = 2020
        while days < 0 {
            year -= 1
            days += isLeap(year) ? 366 : 365
        }
        while days >= (isLeap(year) ? 366 : 365) {
            days -= isLeap(year) ? 366 : 365
            year += 1
        }
        guard (0...9999).contains(year) else { throw RequestError(description: "start out of range") }
        let lengths: [Int64] = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month = 0
        while days >= lengths[month] {
            days -= lengths[month]
            month += 1
        }
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: 4 - String(year).count) + String(year)
        return
            "\(yearText)-\(two(Int64(month + 1)))-\(two(days + 1))T\(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// Bytes read front to back: single bytes, LEB128 varints, zigzag varints, length-prefixed UTF-8.
    struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var remaining: Int { bytes.count - offset }

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw RequestError(description: "cut short") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            var count = 0
            while true {
                let byte = try self.byte()
                count += 1
                guard shift < 64 else { throw RequestError(description: "varint too long") }
                let part = UInt64(byte & 0x7F)
                guard shift == 63 ? part <= 1 : true else { throw RequestError(description: "varint overflows") }
                value |= part << shift
                if byte & 0x80 == 0 {
                    guard count == 1 || byte != 0 else { throw RequestError(description: "overlong varint") }
                    return value
                }
                shift += 7
            }
        }

        /// A varint that must fit an `Int` (a count or an index).
        mutating func int() throws -> Int {
            let value = try varint()
            guard value <= UInt64(Int32.max) else { throw RequestError(description: "count or index too large") }
            return Int(value)
        }

        mutating func signed() throws -> Int64 {
            let value = try varint()
            return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
        }

        mutating func string() throws -> String {
            let length = try varint()
            guard length <= UInt64(remaining) else { throw RequestError(description: "string longer than the bytes left") }
            let slice = Array(bytes[offset..<(offset + Int(length))])
            offset += Int(length)
            guard let text = String(validating: slice, as: UTF8.self) else { throw RequestError(description: "not UTF-8") }
            return text
        }
    }
}
