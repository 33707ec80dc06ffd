import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

@Suite("The ingest job")
struct IngestPipelineTests {
    static let reports = TestFiles.samples.appendingPathComponent("reports").path
    static let trails = TestFiles.samples.appendingPathComponent("trails").path

    @Test func twoRunsGiveIdenticalStoresAndTheSecondStoresNothing() throws {
        // Given a store filled once from the samples
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let first = try TestFiles.ingest([Self.reports], store: store, folder: folder, trails: Self.trails)
        let afterFirst = try store.allRecords()
        // When the same inputs are ingested again, and into a fresh store with other parallelism
        let second = try TestFiles.ingest([Self.reports], store: store, folder: folder, trails: Self.trails)
        let other = try TestFiles.memoryStore()
        _ = try TestFiles.ingest([Self.reports], store: other, folder: folder, trails: Self.trails, jobs: 1)
        // Then nothing new is stored and the stores are identical
        #expect(first.stored > 0)
        #expect(second.stored == 0)
        #expect(second.duplicates == first.stored)
        #expect(second.trailsJoined == 0)
        #expect(try store.allRecords() == afterFirst)
        #expect(try other.allRecords() == afterFirst)
    }

    @Test func aTrailThatArrivesLaterAttachesToItsStoredCrash() throws {
        // Given the samples ingested without their trails folder
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let first = try TestFiles.ingest([Self.reports], store: store, folder: folder)
        let ips = try #require(try store.reports().first { $0.format == .ips })
        #expect(ips.trailInfo == .missing)
        // When the job runs again with the trails folder
        let second = try TestFiles.ingest([Self.reports], store: store, folder: folder, trails: Self.trails)
        // Then the trail joins the stored crash and nothing else changes
        #expect(first.trailsJoined == 0)
        #expect(second.stored == 0)
        #expect(second.trailsJoined == 1)
        #expect(second.trailsMissing == 0)
        let record = try store.record(matchingPrefix: ips.id)
        #expect(record.trailInfo.source == .joined)
        let trail = try #require(try record.decodedTrail())
        #expect(trail.session.pid == record.pid)
        #expect(record.trailInfo.steps == trail.steps.count)
    }

    @Test(
        "A trail joins an .ips only when its session started within 2 s of the launch time",
        arguments: [
            (offset: 2_500, joins: false), (offset: -2_500, joins: false), (offset: 1_999, joins: true), (offset: -1_999, joins: true),
        ])
    func aTrailJoinsOnlyWithinTheLaunchWindow(offset: Int64, joins: Bool) throws {
        // Given the samples stored without trails, and the .ips's own trail with its session start moved by `offset`
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest([Self.reports], store: store, folder: folder)
        let ips = try #require(try store.allRecords().first { $0.format == .ips })
        let launch = try #require(ips.launchTime)
        let codec = try TestFiles.codec()
        let sample = Array(try Data(contentsOf: URL(fileURLWithPath: Self.trails).appendingPathComponent("ips-joined-by-pid.ctr")))
        var trail = try codec.decode(sample)
        #expect(trail.session.pid == ips.pid)
        trail.session.started = Timestamp.rfc3339(milliseconds: launch + offset)
        let trails = folder.appendingPathComponent("moved-trails")
        try FileManager.default.createDirectory(at: trails, withIntermediateDirectories: true)
        try Data(try codec.encodeBinary(trail)).write(to: trails.appendingPathComponent("moved.ctr"))
        // When the trails folder is ingested
        let summary = try TestFiles.ingest([Self.reports], store: store, folder: folder, trails: trails.path)
        // Then it joins exactly when the start is within the window
        #expect(summary.trailsJoined == (joins ? 1 : 0), "offset \(offset) ms")
        let record = try store.record(matchingPrefix: ips.id)
        #expect(record.trailInfo.source == (joins ? .joined : .missing), "offset \(offset) ms")
        if joins {
            #expect(try record.decodedTrail()?.session.started == trail.session.started)
        }
    }

    static func crashtrailReport(id: String, reason: String) -> String {
        #"{"crashtrail":1,"id":"\#(id)","time":"2026-11-02T14:45:05Z","exception":{"type":"EXC_BAD_ACCESS","reason":"\#(reason)"}}"#
    }

    @Test func theSameIDWithOtherBytesIsKeptUnderATildeID() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try TestFiles.write(Self.crashtrailReport(id: "R-1", reason: "first"), to: inputs.appendingPathComponent("a.json"))
        try TestFiles.write(Self.crashtrailReport(id: "R-1", reason: "second"), to: inputs.appendingPathComponent("b.json"))
        try TestFiles.write(Self.crashtrailReport(id: "R-1", reason: "second"), to: inputs.appendingPathComponent("c.json"))
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([inputs.path], store: store, folder: folder)
        #expect(summary.stored == 2)
        #expect(summary.duplicates == 1)
        let secondBytes = Array(Self.crashtrailReport(id: "R-1", reason: "second").utf8)
        let digest = secondBytes.withUnsafeBufferPointer { PayloadDigest.sha256($0) }
        #expect(try store.allRecords().map(\.id) == ["R-1", "R-1~" + digest.prefix(12)])
        #expect(try store.record(matchingPrefix: "R-1~").report.exception.reason == "second")
    }

    @Test func refusedInputsAreQuarantinedWithAReasonInsideTheFolder() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try TestFiles.write("PATCH\u{0}\u{1}binary rom patch EOF", to: inputs.appendingPathComponent("evil name;$(rm) ü..ips"))
        try TestFiles.write(
            #"{"bug_type":"109","incident_id":"X"}"# + "\nIncident Identifier: X\n", to: inputs.appendingPathComponent("legacy.ips"))
        try TestFiles.write(#"{"crashtrail":1,"time":"2026-11-02T14:45:05Z"}"#, to: inputs.appendingPathComponent("no-id.json"))
        try TestFiles.write("  \n", to: inputs.appendingPathComponent("empty.json"))
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([inputs.path], store: store, folder: folder)
        #expect(summary.stored == 0)
        // The .ips with a text body (bug_type 109) is an Apple text report, refused for having no Exception Type line.
        #expect(summary.rejectedByReason == ["empty": 1, "invalid-report": 2, "unrecognized-format": 1])
        let quarantine = folder.appendingPathComponent("quarantine")
        let names = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
        #expect(names.count == 8)
        for name in names where !name.hasSuffix(".reason.txt") {
            #expect(names.contains(name + ".reason.txt"))
            #expect(!name.hasPrefix("."))
            #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        }
        let patchReason = try #require(names.first { $0.contains("evil") && $0.hasSuffix(".reason.txt") })
        #expect(try String(contentsOf: quarantine.appendingPathComponent(patchReason), encoding: .utf8).contains("ROM patch"))
    }

    @Test(arguments: ["../../etc/passwd", "/abs/path/.hidden", "a/b\\c:d*e?.json", "ü/日本.json", "", "z.reason.txt"])
    func quarantineNamesCannotEscape(_ source: String) {
        let name = Quarantine.quarantineName(source)
        #expect(!name.isEmpty)
        #expect(!name.contains("/"))
        #expect(!name.hasPrefix("."))
        #expect(!name.hasSuffix(".reason.txt"))
        #expect(name.count <= 133)
        #expect(name == Quarantine.quarantineName(source))
    }

    @Test func inputsWhoseNamesSanitizeAlikeKeepTheirOwnCopies() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "q", count: 200)
        let names = ["a/b.json", "a_b.json", "a b.json", "z", "z.reason.txt", "d1/" + long, "d2/" + long]
        for (index, name) in names.enumerated() {
            try TestFiles.write("not a crash \(index)", to: folder.appendingPathComponent("in/" + name))
        }
        let summary = try TestFiles.ingest([folder.appendingPathComponent("in").path], store: try TestFiles.memoryStore(), folder: folder)
        #expect(summary.rejected == names.count)
        let quarantine = folder.appendingPathComponent("quarantine")
        let files = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
        let copies = files.filter { !$0.hasSuffix(".reason.txt") }
        #expect(copies.count == names.count)
        #expect(files.count == 2 * names.count)
        let contents = try Set(copies.map { try String(contentsOf: quarantine.appendingPathComponent($0), encoding: .utf8) })
        #expect(contents.count == names.count)
    }

    @Test func theStoreAndItsSiblingsAreNeverInputs() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestFiles.write(Self.crashtrailReport(id: "one", reason: "x"), to: folder.appendingPathComponent("one.json"))
        // The store's own files (the file, its -wal, -shm and .lock, and a -journal) are excluded by the pipeline itself
        // (ReportStore.localFiles), with no option naming them.
        let store = try ReportStore.open(path: folder.appendingPathComponent("crashtrail.sqlite").path)
        try TestFiles.write("SQLite format 3", to: folder.appendingPathComponent("crashtrail.sqlite-journal"))
        let options = IngestOptions(inputs: [folder.path], quarantineDirectory: folder.appendingPathComponent("quarantine").path)
        let summary = try IngestPipeline(store: store, decoder: try TestFiles.codec(), options: options).run()
        #expect(summary.inputs == 1)
        #expect(summary.rejected == 0)
    }

    @Test func anInputOverTheSizeLimitIsRefusedByReference() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestFiles.write(
            Self.crashtrailReport(id: "big", reason: String(repeating: "x", count: 5000)), to: folder.appendingPathComponent("in/big.json"))
        let options = IngestOptions(
            inputs: [folder.appendingPathComponent("in").path], quarantineDirectory: folder.appendingPathComponent("quarantine").path,
            maximumPayloadSize: 1000)
        let summary = try IngestPipeline(store: try TestFiles.memoryStore(), decoder: try TestFiles.codec(), options: options).run()
        #expect(summary.rejectedByReason == ["too-large": 1])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("quarantine").path)
        #expect(files.count == 1)
        #expect(files.allSatisfy { $0.hasSuffix(".reason.txt") })
    }

    @Test func aMissingTrailsFolderStopsTheJobOnlyAfterTheReportsAreStored() throws {
        // Given the samples and a trails folder that does not exist
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        // When the job runs, it fails naming the folder
        do {
            _ = try TestFiles.ingest([Self.reports], store: store, folder: folder, trails: folder.appendingPathComponent("absent").path)
            Issue.record("a missing trails folder must stop the job")
        } catch let error as IngestError {
            #expect(error.code == .trails)
            #expect(error.message.contains("absent"))
        }
        // Then every report parsed before that was stored (the writer thread finished first), nothing half-done
        let expected = try TestFiles.ingest([Self.reports], store: try TestFiles.memoryStore(), folder: folder).stored
        #expect(try store.allRecords().count == expected)
    }

    @Test func trailFilesThatAreSpecialOrTooLargeAreRefusedWithoutBlocking() throws {
        // Given a trails folder with a FIFO (reading it would wait forever), a trail file over the size limit,
        // and the samples' real trail
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trails = folder.appendingPathComponent("trails")
        try FileManager.default.createDirectory(at: trails, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.trails) {
            try FileManager.default.copyItem(atPath: Self.trails + "/" + name, toPath: trails.appendingPathComponent(name).path)
        }
        #expect(mkfifo(trails.appendingPathComponent("pipe.ctr").path, 0o600) == 0)
        try Data(repeating: 0x7B, count: 300_000).write(to: trails.appendingPathComponent("huge.json"))
        let options = IngestOptions(
            inputs: [Self.reports], trailsDirectory: trails.path, quarantineDirectory: folder.appendingPathComponent("quarantine").path,
            jobs: 2, batchSize: 3, maximumPayloadSize: 200_000)
        // When the job runs
        let summary = try IngestPipeline(store: try TestFiles.memoryStore(), decoder: try TestFiles.codec(), options: options).run()
        // Then both are refused with their reasons, and the real trail still joins its crash
        #expect(summary.rejectedByReason["unreadable"] == 1)
        #expect(summary.rejectedByReason["too-large"] == 1)
        #expect(summary.trailsJoined == 1)
        let reasons = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("quarantine").path)
            .filter { $0.hasSuffix(".reason.txt") }
            .map { try String(contentsOf: folder.appendingPathComponent("quarantine/" + $0), encoding: .utf8) }
        #expect(reasons.contains { $0.contains("not a regular file") })
        #expect(reasons.contains { $0.contains("300000 bytes, over the 200000-byte limit") })
    }

    @Test(
        "Hostile numbers are refused, never trapped on",
        arguments: [
            "{\"event_id\":\"00000000000000000000000000000001\"}\n{\"type\":\"event\",\"length\":9223372036854775807}\n{}\n",
            #"{"report":{"id":"KS-big","timestamp":"100000000000000000000000000000"},"crash":{}}"#,
            #"{"report":{"id":"KS-neg","timestamp":-5},"system":{"app_start_time":"99999-01-01T00:00:00Z"},"crash":{"threads":[{"crashed":true,"backtrace":{"contents":[{"instruction_addr":9223372036854775807,"object_addr":-9223372036854775807}]}}]}}"#,
            #"{"crashtrail":1,"id":"x","time":"9999-12-31T23:59:59Z","frames":[{"offset":"18446744073709551615"}]}"#,
        ])
    func hostileNumbers(_ payload: String) throws {
        let processor = PayloadProcessor(decoder: try TestFiles.codec())
        let bytes = Array(payload.utf8)
        let (outcomes, _) = bytes.withUnsafeBufferPointer { processor.process($0, source: "hostile") }
        #expect(outcomes.count == 1)
    }

    @Test func standardInputIsReadAsNDJSON() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = [
            Self.crashtrailReport(id: "S-1", reason: "one"), "", "not json at all",
            #"{"event_id":"4D1FE12F-9EEE-4537-8DF6-791B7586D554","timestamp":1793606400.5,"exception":{"values":[{"type":"SIGSEGV"}]}}"#,
        ]
        let file = folder.appendingPathComponent("stdin.ndjson")
        try TestFiles.write(lines.joined(separator: "\n"), to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let store = try TestFiles.memoryStore()
        let options = IngestOptions(inputs: ["-"], quarantineDirectory: folder.appendingPathComponent("quarantine").path, jobs: 2)
        let summary = try IngestPipeline(store: store, decoder: try TestFiles.codec(), options: options).run(standardInput: handle)
        #expect(summary.inputs == 3)
        #expect(summary.stored == 2)
        #expect(summary.rejectedByReason == ["unrecognized-format": 1])
        let sentry = try store.record(matchingPrefix: "4d1fe12f9eee")
        #expect(sentry.id == "4d1fe12f9eee45378df6791b7586d554")
        #expect(sentry.time == "2026-11-02T08:00:00.500000Z")
        #expect(sentry.source == "-:4")
    }

    @Test func aStandardInputLineOverTheLimitIsSkippedAndTheRestRead() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = Self.crashtrailReport(id: "LONG", reason: String(repeating: "r", count: 3000))
        let lines = [Self.crashtrailReport(id: "A", reason: "a"), long, Self.crashtrailReport(id: "B", reason: "b")]
        let file = folder.appendingPathComponent("stdin.ndjson")
        try TestFiles.write(lines.joined(separator: "\n") + "\n", to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let store = try TestFiles.memoryStore()
        let options = IngestOptions(
            inputs: ["-"], quarantineDirectory: folder.appendingPathComponent("quarantine").path, maximumPayloadSize: 1000)
        let summary = try IngestPipeline(store: store, decoder: try TestFiles.codec(), options: options).run(standardInput: handle)
        #expect(summary.inputs == 3)
        #expect(summary.rejectedByReason == ["too-large": 1])
        #expect(try store.allRecords().map(\.id) == ["A", "B"])
    }

    @Test func linksBackIntoTheFolderAreNotFollowedAgain() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try TestFiles.write(Self.crashtrailReport(id: "one", reason: "x"), to: inputs.appendingPathComponent("one.json"))
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(atPath: inputs.appendingPathComponent(name).path, withDestinationPath: ".")
        }
        let summary = try TestFiles.ingest([inputs.path], store: try TestFiles.memoryStore(), folder: folder)
        #expect(summary.inputs == 1)
        #expect(summary.stored == 1)
    }

    @Test func anEnvelopeMayHoldTwoEventsAndItemsWithoutLength() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = #"{"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","exception":{"values":[{"type":"A"}]}}"#
        let second = #"{"event_id":"bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb","exception":{"values":[{"type":"B"}]}}"#
        let envelope = "{}\n{\"type\":\"event\",\"length\":\(first.utf8.count)}\n\(first)\n{\"type\":\"event\"}\n\(second)\n"
        try TestFiles.write(envelope, to: folder.appendingPathComponent("in/two.envelope"))
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([folder.appendingPathComponent("in").path], store: store, folder: folder)
        #expect(summary.stored == 2)
        #expect(try store.allRecords().map(\.id) == ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])
        #expect(try store.allRecords().allSatisfy { $0.format == .sentryEnvelope })
    }

    @Test func anAmbiguousPrefixNamesTheCandidates() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestFiles.write(Self.crashtrailReport(id: "AB-1", reason: "x"), to: folder.appendingPathComponent("in/1.json"))
        try TestFiles.write(Self.crashtrailReport(id: "AB-2", reason: "x"), to: folder.appendingPathComponent("in/2.json"))
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest([folder.appendingPathComponent("in").path], store: store, folder: folder)
        #expect(throws: StoreError.self) { try store.record(matchingPrefix: "AB") }
        do {
            _ = try store.record(matchingPrefix: "AB")
        } catch {
            #expect(error.code == .ambiguous)
            #expect(error.candidates == ["AB-1", "AB-2"])
        }
        #expect(try store.record(matchingPrefix: "AB-2").id == "AB-2")
        #expect(try store.record(matchingPrefix: "ab-1").id == "AB-1")
        #expect(throws: StoreError.self) { try store.record(matchingPrefix: "ZZ") }
        #expect(throws: StoreError.self) { try store.record(matchingPrefix: "A_") }
    }

    @Test func truncatedAndCorruptedSamplesAreRefusedNeverCrash() throws {
        // Every sample cut at seeded points, and with bytes flipped, is either stored or refused with a reason.
        var random = SplitMix64(seed: 7)
        let processor = PayloadProcessor(decoder: try TestFiles.codec())
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.reports).sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.reports).appendingPathComponent(name)))
            for _ in 0..<12 {
                var mutated = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
                if !mutated.isEmpty, Bool.random(using: &random) {
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                let (outcomes, inputs) = mutated.withUnsafeBufferPointer { processor.process($0, source: name) }
                #expect(inputs >= 1 || mutated.allSatisfy { JSONBytes.isWhitespace($0) || $0 == 10 })
                for case .rejected(let reason, _, _) in outcomes { #expect(!reason.message.isEmpty) }
            }
        }
    }
}
