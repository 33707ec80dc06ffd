import CrashtrailCore
import CrashtrailEncoding

/// The journal's bytes (docs/RECORDING.md, "The journal file").
///
/// All integers are little-endian:
///
/// ```
/// header   "CTJL"  version:u16 = 1  flags:u16 = 0  length:u32  crc32:u32  JSON (length bytes)
/// record   length:u32  crc32:u32 (of sequence + JSON)  sequence:u64  JSON (length bytes)   … repeated
/// ```
///
/// The header JSON holds the app, the session, the limits, the state before the first record's step (`base`), how
/// many steps were let go before it (`dropped`) and the manifest document. Each record holds one step's canonical
/// JSON; `sequence` counts every step of the session, let go or kept, so a record out of place is seen.
///
/// A session the app ends itself (`TrailRecorder.endSession()`) gets one last record numbered ``endSequence`` holding
/// `{"ended":"exited"}`: a journal without it ended by a crash or a kill (SPEC section 20).
enum JournalLayout {
    /// The sequence number of the record that says the app ended the session.
    static let endSequence = UInt64.max
    /// The JSON of that record.
    static let endJSON = Array(#"{"ended":"exited"}"#.utf8)
    static let magic: [UInt8] = Array("CTJL".utf8)
    static let version: UInt16 = 1
    /// Magic, version, flags, length and checksum.
    static let headerPrefixSize = 16
    /// Length, checksum and sequence.
    static let recordPrefixSize = 16
    /// The largest header this build writes or reads: a manifest of thousands of destinations fits.
    static let maximumHeaderSize = 8 << 20

    /// What the header says.
    struct Header: Equatable {
        var app: Trail.AppInfo
        var session: Trail.Session
        var limits: TrailRecorder.Limits
        var base: NavigationState?
        var dropped: Int64
        var manifestText: String

        var jsonValue: JSONValue {
            .object([
                "format": "crashtrail-journal",
                "app": .object([
                    "bundleID": .string(app.bundleID), "version": .string(app.version), "build": .string(app.build),
                ]),
                "session": .object(["id": .string(session.id), "started": .string(session.started), "pid": .int(session.pid)]),
                "limits": .object(["steps": .int(Int64(limits.maximumSteps)), "bytes": .int(Int64(limits.maximumBytes))]),
                "base": base?.jsonValue ?? .null,
                "dropped": .int(dropped),
                "manifest": .string(manifestText),
            ])
        }

        init(
            app: Trail.AppInfo, session: Trail.Session, limits: TrailRecorder.Limits, base: NavigationState?, dropped: Int64,
            manifestText: String
        ) {
            self.app = app
            self.session = session
            self.limits = limits
            self.base = base
            self.dropped = dropped
            self.manifestText = manifestText
        }

        /// Reads the header JSON.
        /// - Throws: a sentence saying which field is missing or wrong.
        init(jsonValue value: JSONValue) throws(TrailError) {
            let fields = try JSONFields(
                value, path: "header", allowed: ["format", "app", "session", "limits", "base", "dropped", "manifest"])
            guard try fields.required("format").string() == "crashtrail-journal" else {
                throw TrailError(.wrongType, at: "header.format", "the format is not crashtrail-journal")
            }
            let appFields = try JSONFields(try fields.required("app").value, path: "header.app", allowed: ["bundleID", "version", "build"])
            app = Trail.AppInfo(
                bundleID: try appFields.required("bundleID").string(), version: try appFields.required("version").string(),
                build: try appFields.required("build").string())
            let sessionFields = try JSONFields(
                try fields.required("session").value, path: "header.session", allowed: ["id", "started", "pid"])
            session = Trail.Session(
                id: try sessionFields.required("id").string(), started: try sessionFields.required("started").string(),
                pid: try sessionFields.required("pid").int())
            let limitFields = try JSONFields(try fields.required("limits").value, path: "header.limits", allowed: ["steps", "bytes"])
            let steps = try limitFields.required("steps").int()
            let bytes = try limitFields.required("bytes").int()
            guard (0...Int64(Int32.max)).contains(steps), (0...Int64(Int32.max)).contains(bytes) else {
                throw TrailError(.wrongType, at: "header.limits", "the limits \(steps) steps and \(bytes) bytes are out of range")
            }
            limits = TrailRecorder.Limits(maximumSteps: Int(steps), maximumBytes: Int(bytes))
            let baseField = try fields.required("base")
            if case .null = baseField.value {
                base = nil
            } else {
                base = try NavigationState(jsonValue: baseField.value, path: "header.base")
            }
            dropped = try fields.required("dropped").int()
            guard dropped >= 0 else { throw TrailError(.wrongType, at: "header.dropped", "dropped is negative") }
            manifestText = try fields.required("manifest").string()
        }
    }

    /// The header's bytes: the fixed prefix, then the JSON.
    static func headerBytes(_ header: Header) -> [UInt8] {
        let json = CanonicalJSON.bytes(of: header.jsonValue)
        var out: [UInt8] = []
        out.reserveCapacity(headerPrefixSize + json.count)
        out += magic
        appendLittleEndian(UInt64(version), bytes: 2, to: &out)
        appendLittleEndian(0, bytes: 2, to: &out)
        appendLittleEndian(UInt64(json.count), bytes: 4, to: &out)
        appendLittleEndian(UInt64(CRC32.checksum(json)), bytes: 4, to: &out)
        out += json
        return out
    }

    /// Appends one record: the step numbered `sequence`, whose canonical JSON `writeJSON` appends.
    /// - Returns: the length of the JSON.
    @discardableResult
    static func appendRecord(sequence: UInt64, to out: inout [UInt8], json writeJSON: (inout [UInt8]) -> Void) -> Int {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 8))
        appendLittleEndian(sequence, bytes: 8, to: &out)
        writeJSON(&out)
        let length = out.count - start - recordPrefixSize
        let crc = out.withUnsafeBytes { raw in CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(start + 8)...])) }
        for index in 0..<4 {
            out[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index))
            out[start + 4 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index))
        }
        return length
    }

    static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    static func readLittleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
