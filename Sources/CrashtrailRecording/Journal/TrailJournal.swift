import CrashtrailCore
import CrashtrailEncoding
public import Foundation

/// The crash-safe journal of a recorder (SPEC section 10): recovery at the next launch.
///
/// ```swift
/// // At launch, before recording the new session:
/// if let previous = try? TrailJournal.recover(at: journalURL) {
///     let sidecar = try TrailCodec(manifests: [manifest]).encodeBinary(previous.trail)   // beside the .ips
/// }
/// try recorder.startJournal(at: journalURL)
/// ```
public enum TrailJournal {
    /// Reads the journal at `url` back into the trail of its durable steps.
    ///
    /// Every record up to the first damaged one is kept (a torn last write, a flipped bit, zeros); what follows
    /// is dropped and described in ``RecoveredJournal/damage``. A step that was not recorded is never recovered.
    /// - Throws: ``JournalError`` when nothing can be recovered: the file is not a journal, was written by a newer
    ///   version, has a damaged header, or cannot be read.
    public static func recover(at url: URL) throws(JournalError) -> RecoveredJournal {
        let path = url.path
        let bytes: [UInt8]
        let fileSize: Int
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            fileSize = Int(clamping: try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            // A journal within any limits is far smaller; reading stops here so a huge file cannot exhaust memory.
            bytes = [UInt8](try handle.read(upToCount: maximumReadSize) ?? Data())
        } catch {
            throw JournalError(.unreadable, path: path, "could not read the journal: \(error.localizedDescription)")
        }
        return try recover(bytes, path: path, fileSize: max(fileSize, bytes.count))
    }

    /// The most bytes recovery reads; the rest of a larger file is reported as dropped.
    static let maximumReadSize = 256 << 20

    /// Reads journal bytes (as ``recover(at:)`` does after reading the file).
    /// - Parameters:
    ///   - bytes: the journal file's bytes.
    ///   - path: the file's name, for messages.
    /// - Returns: the trail of the durable steps, with any damage found.
    /// - Throws: `JournalError` when nothing in the bytes can be recovered.
    public static func recover(_ bytes: [UInt8], path: String) throws(JournalError) -> RecoveredJournal {
        try recover(bytes, path: path, readLimit: maximumReadSize)
    }

    /// Recovers from at most the first `readLimit` bytes, as for a file larger than recovery reads.
    static func recover(_ bytes: [UInt8], path: String, readLimit: Int) throws(JournalError) -> RecoveredJournal {
        try recover(Array(bytes.prefix(readLimit)), path: path, fileSize: bytes.count)
    }

    /// Recovers `bytes`, the first bytes of a file of `fileSize` bytes (more when the file was too large to read whole).
    private static func recover(_ bytes: [UInt8], path: String, fileSize: Int) throws(JournalError) -> RecoveredJournal {
        let result = bytes.withUnsafeBytes { raw in
            Result(catchingTyped: { () throws(JournalError) in try recover(raw, path: path, fileSize: fileSize) })
        }
        return try result.typedValue()
    }

    private static func recover(_ raw: UnsafeRawBufferPointer, path: String, fileSize: Int) throws(JournalError) -> RecoveredJournal {
        let prefix = JournalLayout.headerPrefixSize
        guard raw.count >= 4, Array(raw[0..<4]) == JournalLayout.magic else {
            let what = raw.isEmpty ? "the file is empty" : "it does not start with \"CTJL\""
            throw JournalError(.notAJournal, path: path, "not a crashtrail journal: \(what)")
        }
        guard raw.count >= prefix else {
            throw JournalError(.damagedHeader, path: path, "the header is torn: the file ends after \(raw.count) bytes")
        }
        let version = JournalLayout.readLittleEndian(raw, at: 4, count: 2)
        guard version == JournalLayout.version else {
            throw JournalError(
                .unsupportedVersion, path: path,
                "journal format version \(version) is not supported; this build reads version \(JournalLayout.version), so recover it with a newer crashtrail"
            )
        }
        let flags = JournalLayout.readLittleEndian(raw, at: 6, count: 2)
        guard flags == 0 else {
            throw JournalError(
                .unsupportedVersion, path: path,
                "the journal sets flags \(flags) that this build does not know (a damaged header, or a newer crashtrail wrote it)")
        }
        let headerLength = Int(JournalLayout.readLittleEndian(raw, at: 8, count: 4))
        guard headerLength <= JournalLayout.maximumHeaderSize else {
            throw JournalError(.damagedHeader, path: path, "the header claims \(headerLength) bytes, more than a journal's header can hold")
        }
        guard raw.count - prefix >= headerLength else {
            throw JournalError(
                .damagedHeader, path: path,
                "the header is torn: it has \(headerLength) bytes, the file holds \(raw.count - prefix) after its prefix")
        }
        let headerJSON = UnsafeRawBufferPointer(rebasing: raw[prefix..<(prefix + headerLength)])
        let expected = UInt32(JournalLayout.readLittleEndian(raw, at: 12, count: 4))
        guard CRC32.checksum(headerJSON) == expected else {
            throw JournalError(
                .damagedHeader, path: path, "the header fails its checksum, so neither the session nor any step can be trusted")
        }
        let header: JournalLayout.Header
        let manifest: Manifest
        do {
            header = try JournalLayout.Header(jsonValue: try JSONParser.parse(headerJSON))
        } catch {
            throw JournalError(.damagedHeader, path: path, "the header cannot be read: \(error)")
        }
        do {
            manifest = try Manifest(yaml: header.manifestText, source: "the journal's manifest")
        } catch {
            throw JournalError(.damagedHeader, path: path, "the manifest in the header cannot be loaded: \(error)")
        }

        let engine = NavigationEngine(manifest: manifest, state: header.base)
        var kept = BoundedTrail(
            engine: engine, dropped: header.dropped, startedAtBase: header.base == nil, limits: header.limits)
        var offset = prefix + headerLength
        var records = 0
        var damage: RecoveredJournal.Damage?
        var endedByApp = false
        func stop(_ reason: String) {
            damage = RecoveredJournal.Damage(offset: offset, droppedBytes: raw.count - offset, reason: reason)
        }
        while offset < raw.count {
            let sequence = UInt64(header.dropped) + UInt64(records)
            guard raw.count - offset >= JournalLayout.recordPrefixSize else {
                stop("a torn record: its \(JournalLayout.recordPrefixSize)-byte prefix is cut after \(raw.count - offset) bytes")
                break
            }
            let length = Int(JournalLayout.readLittleEndian(raw, at: offset, count: 4))
            let checksum = UInt32(JournalLayout.readLittleEndian(raw, at: offset + 4, count: 4))
            let start = offset + JournalLayout.recordPrefixSize
            if length == 0 {
                let zeros = raw[offset..<start].allSatisfy { $0 == 0 }
                stop(zeros ? "zero bytes where record \(records) should start" : "record \(records) is empty")
                break
            }
            guard raw.count - start >= length else {
                stop("record \(records) is torn: it has \(length) bytes of JSON, the file holds \(raw.count - start)")
                break
            }
            let json = UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])
            let sequenceBytes = UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<start])
            guard CRC32.checksum(json, continuing: CRC32.checksum(sequenceBytes)) == checksum else {
                stop("record \(records) fails its checksum")
                break
            }
            let recordSequence = JournalLayout.readLittleEndian(raw, at: offset + 8, count: 8)
            if recordSequence == JournalLayout.endSequence, json.elementsEqual(JournalLayout.endJSON) {
                endedByApp = true
                offset = start + length
                if offset < raw.count { stop("\(raw.count - offset) bytes follow the record that ended the session") }
                break
            }
            guard recordSequence == sequence else {
                stop("record \(records) is numbered \(recordSequence), not \(sequence)")
                break
            }
            let step: Step
            do {
                step = try Step(jsonValue: try JSONParser.parse(json), path: "steps[\(sequence)]")
            } catch {
                stop("record \(records) is not a step: \(error)")
                break
            }
            if let last = kept.lastTime, step.t < last {
                stop("record \(records) goes back in time, from \(last) to \(step.t)")
                break
            }
            kept.append(step, size: length)
            records += 1
            offset = start + length
        }
        if fileSize > raw.count {
            // Only the first bytes were read; what follows them is dropped too, and the reason says why.
            let reason =
                "the journal is \(fileSize) bytes, more than the \(raw.count) recovery reads (far more than a recorder writes), so the rest was not read"
            let from = damage?.offset ?? raw.count
            damage = RecoveredJournal.Damage(
                offset: from, droppedBytes: fileSize - from, reason: damage.map { $0.reason + "; " + reason } ?? reason)
        }
        return RecoveredJournal(
            trail: kept.trail(app: header.app, session: header.session, stampingFinal: true), manifest: manifest,
            limits: header.limits, records: records, headerSize: prefix + headerLength, fileSize: fileSize, damage: damage,
            endedByApp: endedByApp)
    }
}
