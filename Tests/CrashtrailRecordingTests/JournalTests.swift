import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailRecording

/// The journal (SPEC section 10): what the recorder writes is what recovery gives back, and damage of any kind
/// keeps the intact steps and never yields a step that was not recorded.
@MainActor
@Suite("Journal")
struct JournalTests {
    static let app = Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412")
    static let session = Trail.Session(id: "00000000-0000-4000-8000-000000000001", started: "2026-11-01T00:00:00.000Z", pid: 4242)

    static func manifest() throws -> Manifest { try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml") }
    /// The recorders' redaction key: the steps a journal holds are the recorded steps redacted with it (a destination
    /// the manifest lacks has its values replaced, SPEC 18).
    static let key: [UInt8] = Array(repeating: 7, count: 32)

    /// `steps` as the recorder records them.
    static func redacted(_ steps: [Step]) throws -> [Step] {
        let redactor = Redactor(manifest: try manifest(), key: key)
        return steps.map(redactor.redact)
    }

    /// A journal of `steps` recorded with `limits`, its bytes, and the recorder that wrote it.
    static func journal(
        of steps: [Step], limits: TrailRecorder.Limits = .init(), in folder: TemporaryFolder
    ) throws -> (bytes: [UInt8], recorder: TrailRecorder, url: URL) {
        let url = folder.url.appendingPathComponent("session.ctj")
        let recorder = TrailRecorder(manifest: try manifest(), app: app, session: session, limits: limits, redactionKey: key)
        try recorder.startJournal(at: url)
        for step in steps { try recorder.record(step) }
        #expect(recorder.journalFailure == nil)
        return (Array(try Data(contentsOf: url)), recorder, url)
    }

    @Test("On a fresh install the journal's folder does not exist yet: starting the journal makes it")
    func freshInstall() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("Library/Application Support/crashtrail/session.ctj")
        let recorder = TrailRecorder(manifest: try Self.manifest(), app: Self.app, session: Self.session)
        try recorder.startJournal(at: url)
        try recorder.record(Step(t: 10, .select(tab: 1)))
        #expect(recorder.journalFailure == nil)
        #expect(try TrailJournal.recover(at: url).trail.steps.count == 1)
    }

    @Test("A journal whose writes are refused (a locked device) is written whole once they work again; recording goes on")
    func refusedWritesAreRetried() throws {
        // Given a journal file that cannot be written, as writes fail while file protection locks the folder (here
        // the journal's new file is a folder, which open refuses even to root)
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("session.ctj")
        let blocked = url.path + ".new"
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        let recorder = TrailRecorder(manifest: try Self.manifest(), app: Self.app, session: Self.session, redactionKey: Self.key)

        // When the journal starts and two steps are recorded while it is locked
        #expect(throws: JournalError.self) { try recorder.startJournal(at: url) }
        try recorder.record(Step(t: 10, .select(tab: 1)))
        try recorder.record(Step(t: 20, .select(tab: 2)))

        // Then the steps are kept in memory and the failure is reported
        #expect(recorder.journalFailure != nil)
        #expect(recorder.trail().steps.count == 2)
        #expect(!recorder.resumeJournal())

        // When the device is unlocked and the next step comes
        try FileManager.default.removeItem(atPath: blocked)
        try recorder.record(Step(t: 30, .select(tab: 0)))

        // Then the journal holds every step, and keeps being written
        #expect(recorder.journalFailure == nil)
        #expect(try TrailJournal.recover(at: url).trail == recorder.trail(stampingFinal: true))
        try recorder.record(Step(t: 40, .select(tab: 1)))
        #expect(try TrailJournal.recover(at: url).trail == recorder.trail(stampingFinal: true))
        #expect(recorder.trail().steps.count == 4)
    }

    @Test("Recovery gives the recorder's trail after every step, through truncation and compaction (300 sequences)")
    func recoveryEqualsRecorder() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        let manifest = try Self.manifest()
        var compactions = 0
        for seed in 0..<300 {
            // Given a recorder with small limits, so steps are let go and the journal is rewritten
            var generator = RandomStepGenerator(manifest: manifest, seed: UInt64(seed))
            let steps = generator.steps(count: 1 + seed % 250)
            let limits = TrailRecorder.Limits(maximumSteps: 1 + seed % 40, maximumBytes: 300 + (seed * 131) % 4_000)
            let url = folder.url.appendingPathComponent("\(seed).ctj")
            let recorder = TrailRecorder(manifest: manifest, app: Self.app, session: Self.session, limits: limits)
            try recorder.startJournal(at: url)
            var largest = 0
            for (index, step) in steps.enumerated() {
                // When a step is recorded
                try recorder.record(step)
                let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
                if size < largest { compactions += 1 }
                largest = max(largest, size)
                // Then the journal recovers to the recorder's trail, with final
                if index % 17 == 0 || index == steps.count - 1 {
                    let recovered = try TrailJournal.recover(at: url)
                    #expect(recovered.trail == recorder.trail(stampingFinal: true), "seed \(seed), step \(index)")
                    #expect(recovered.damage == nil)
                }
            }
            // And its final is what replaying its steps from its base gives
            let trail = try TrailJournal.recover(at: url).trail
            var engine = NavigationEngine(manifest: manifest, state: trail.base)
            engine.apply(trail.steps)
            #expect(engine.state == trail.final, "seed \(seed)")
        }
        #expect(compactions > 100, "the journal was rewritten \(compactions) times")
    }

    @Test("The journal stays within its bounds over 20,000 steps")
    func staysBounded() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 99)
        let limits = TrailRecorder.Limits(maximumSteps: 100, maximumBytes: 8 * 1024)
        let url = folder.url.appendingPathComponent("long.ctj")
        let recorder = TrailRecorder(manifest: try Self.manifest(), app: Self.app, session: Self.session, limits: limits)
        try recorder.startJournal(at: url)
        var largest = 0
        for step in generator.steps(count: 20_000) {
            try recorder.record(step)
            largest = max(largest, try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0)
        }
        let recovered = try TrailJournal.recover(at: url)
        // The header holds the manifest (about 2 KB); records hold at most about twice the limits, and one step more.
        #expect(largest < 4_096 + 2 * (16 * 1024 + 128 * 16) + 2_048, "largest journal \(largest) bytes")
        #expect(recovered.trail.dropped + Int64(recovered.trail.steps.count) == 20_000)
        #expect(recovered.trail == recorder.trail(stampingFinal: true))
    }

    /// The input steps whose records lie wholly before `offset`.
    static func recordEnds(in bytes: [UInt8]) -> [Int] {
        let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        var ends: [Int] = [16 + headerLength]
        var offset = 16 + headerLength
        while offset < bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            offset += 16 + length
            ends.append(offset)
        }
        return ends
    }

    @Test("Truncated at every byte offset: the steps wholly written are recovered, the torn one never")
    func truncatedAtEveryOffset() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 5)
        let steps = generator.steps(count: 40)
        let (bytes, _, _) = try Self.journal(of: steps, in: folder)
        let recorded = try Self.redacted(steps)
        let ends = Self.recordEnds(in: bytes)
        #expect(ends.count == steps.count + 1)
        for offset in 0...bytes.count {
            let prefix = Array(bytes[..<offset])
            guard offset >= ends[0] else {
                #expect(throws: JournalError.self) { try TrailJournal.recover(prefix, path: "cut") }
                continue
            }
            let recovered = try TrailJournal.recover(prefix, path: "cut")
            let whole = ends.lastIndex { $0 <= offset }!
            #expect(recovered.trail.steps == Array(recorded[..<whole]), "cut at \(offset)")
            #expect((recovered.damage == nil) == ends.contains(offset), "cut at \(offset)")
        }
    }

    @Test("Bit flips anywhere: refused in the header, else a prefix of the steps and the damage named (5,000 flips)")
    func bitFlips() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 6)
        let steps = generator.steps(count: 60)
        let (bytes, _, _) = try Self.journal(of: steps, in: folder)
        let recorded = try Self.redacted(steps)
        let ends = Self.recordEnds(in: bytes)
        var random = SplitMix64(seed: 0xF11B)
        for _ in 0..<5_000 {
            var damaged = bytes
            let position = Int(random.next() % UInt64(bytes.count))
            damaged[position] ^= UInt8(1) << UInt8(random.next() % 8)
            if position < ends[0] {
                #expect(throws: JournalError.self) { try TrailJournal.recover(damaged, path: "flipped") }
                continue
            }
            let recovered = try TrailJournal.recover(damaged, path: "flipped")
            // The record holding the flipped bit and everything after it are dropped; all before it are kept.
            let intact = ends.lastIndex { $0 <= position }!
            #expect(recovered.trail.steps == Array(recorded[..<intact]), "bit flipped at \(position)")
            #expect(recovered.damage?.offset == ends[intact])
        }
    }

    @Test("Zeros: a zero-filled stretch keeps the steps before it; zeros after the end keep every step")
    func zeroFilled() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 7)
        let steps = generator.steps(count: 30)
        let (bytes, _, _) = try Self.journal(of: steps, in: folder)
        let recorded = try Self.redacted(steps)
        let ends = Self.recordEnds(in: bytes)
        // A page of zeros where records 10 and 11 were (as a file system may leave after a power cut)
        var zeroed = bytes
        for index in ends[10]..<ends[12] { zeroed[index] = 0 }
        let recovered = try TrailJournal.recover(zeroed, path: "zeroed")
        #expect(recovered.trail.steps == Array(recorded[..<10]))
        #expect(recovered.damage?.reason.contains("zero bytes") == true)
        // Zeros past the last record
        let padded = try TrailJournal.recover(bytes + [UInt8](repeating: 0, count: 4096), path: "padded")
        #expect(padded.trail.steps == recorded)
        #expect(padded.damage?.droppedBytes == 4096)
        // A zeroed file
        #expect(throws: JournalError.self) { try TrailJournal.recover([UInt8](repeating: 0, count: bytes.count), path: "zeros") }
    }

    @Test("A journal grown past its bounds recovers within the limits, newest steps kept")
    func grownPastBounds() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 8)
        let steps = generator.steps(count: 600)
        // Given a journal written with no compaction in sight (huge limits), read as if its limits were small
        let (bytes, _, _) = try Self.journal(of: steps, limits: .init(maximumSteps: 1_000_000, maximumBytes: 1 << 30), in: folder)
        let recorded = try Self.redacted(steps)
        let recovered = try TrailJournal.recover(bytes, path: "grown")
        #expect(recovered.trail.steps == recorded)
        // And one whose header says 50 steps: patch the limits in the header JSON and its checksum
        let small = try Self.rewritingHeader(bytes) { $0.replacingOccurrences(of: "\"steps\":1000000", with: "\"steps\":50") }
        let bounded = try TrailJournal.recover(small, path: "grown")
        #expect(bounded.trail.steps.count <= 50)
        #expect(bounded.trail.steps == Array(recorded.suffix(bounded.trail.steps.count)))
        #expect(bounded.trail.dropped + Int64(bounded.trail.steps.count) == 600)
        var engine = NavigationEngine(manifest: try Self.manifest(), state: bounded.trail.base)
        engine.apply(bounded.trail.steps)
        #expect(engine.state == bounded.trail.final)
    }

    @Test("A file larger than recovery reads: the steps in what was read, and the rest named as not read")
    func largerThanRecoveryReads() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 11)
        let steps = generator.steps(count: 30)
        let (bytes, _, _) = try Self.journal(of: steps, in: folder)
        let recorded = try Self.redacted(steps)
        let ends = Self.recordEnds(in: bytes)
        // Read up to the end of record 20 (whole records), or into the middle of record 21
        for limit in [ends[20], ends[20] + 7] {
            let recovered = try TrailJournal.recover(bytes, path: "big", readLimit: limit)
            #expect(recovered.trail.steps == Array(recorded[..<20]))
            #expect(recovered.fileSize == bytes.count)
            #expect(recovered.damage?.offset == ends[20])
            #expect(recovered.damage?.droppedBytes == bytes.count - ends[20])
            #expect(recovered.damage?.reason.contains("more than the \(limit) recovery reads") == true)
        }
    }

    /// `bytes` with its header JSON changed by `change`, with a matching length and checksum.
    static func rewritingHeader(_ bytes: [UInt8], _ change: (String) -> String) throws -> [UInt8] {
        let ends = recordEnds(in: bytes)
        let json = String(decoding: bytes[16..<ends[0]], as: UTF8.self)
        let changed = Array(change(json).utf8)
        var out = Array(bytes[0..<8])
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: changed.count >> shift)) }
        let crc = CRC32Reference.checksum(changed)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        return out + changed + bytes[ends[0]...]
    }

    @Test("Refused with the reason: not a journal, a newer version, a damaged or torn header")
    func refusals() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 9)
        let (bytes, _, _) = try Self.journal(of: generator.steps(count: 10), in: folder)
        func code(_ input: [UInt8]) -> String? {
            do {
                _ = try TrailJournal.recover(input, path: "j")
                return nil
            } catch {
                #expect(error.description.hasPrefix("j: "))
                return error.code.name
            }
        }
        #expect(code([]) == "not-a-journal")
        #expect(code(Array("{\"version\":1,\"steps\":[]}".utf8)) == "not-a-journal")
        #expect(code(Array("ct1:x1QBAR6k".utf8)) == "not-a-journal")
        var newer = bytes
        newer[4] = 2
        #expect(code(newer) == "unsupported-version")
        var damagedHeader = bytes
        damagedHeader[40] ^= 0x20
        #expect(code(damagedHeader) == "damaged-header")
        #expect(code(Array(bytes[..<100])) == "damaged-header")
        #expect(code(Array(bytes[..<10])) == "damaged-header")
        let noManifest = try Self.rewritingHeader(bytes) { $0.replacingOccurrences(of: "\"manifest\":\"", with: "\"manifest\":\"}") }
        #expect(code(noManifest) == "damaged-header")
        // A missing file
        #expect(throws: JournalError.self) { try TrailJournal.recover(at: folder.url.appendingPathComponent("none.ctj")) }
    }

    @Test("A journal is replaced whole: starting again over an old one leaves only the new session")
    func startReplaces() throws {
        let folder = try TemporaryFolder("journal")
        defer { folder.remove() }
        var generator = RandomStepGenerator(manifest: try Self.manifest(), seed: 10)
        let (_, _, url) = try Self.journal(of: generator.steps(count: 30), in: folder)
        let recorder = TrailRecorder(manifest: try Self.manifest(), app: Self.app, session: Self.session)
        try recorder.startJournal(at: url)
        #expect(try TrailJournal.recover(at: url).trail.steps.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".new"))
        // A folder that cannot be made (a file is in its place) cannot hold a journal: the error names the path
        let blocker = try folder.write("not a folder", to: "blocker")
        let error = #expect(throws: JournalError.self) {
            try recorder.startJournal(at: blocker.appendingPathComponent("j.ctj"))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("blocker/j.ctj"))
    }
}

/// A bit-wise CRC-32 (ISO-HDLC), written from its definition, for building damaged headers in tests.
enum CRC32Reference {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}
