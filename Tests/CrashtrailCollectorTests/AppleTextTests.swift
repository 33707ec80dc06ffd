import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import GRDB
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Apple's text crash reports: the legacy format, PLCrashReporter's text, and an `.ips` with a text body.
@Suite("Apple text crash reports")
struct AppleTextTests {
    static let folder = TestFiles.samples.appendingPathComponent("apple-text")

    static func parse(_ name: String) throws -> ParsedPayload {
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        return try bytes.withUnsafeBufferPointer { buffer in
            #expect(try FormatDetector.detect(buffer) == .single(.appleText), "\(name)")
            return try PayloadParser.parse(buffer, as: .appleText, context: ParseContext()).payloads[0]
        }
    }

    @Test("The text rendering of the sample .ips, and the same under a bug_type 109 header, read as the .ips does")
    func legacyAndBugType109() throws {
        let ipsBytes = Array(try Data(contentsOf: TestFiles.samples.appendingPathComponent("reports/ips-joined-by-pid.ips")))
        let ips = try ipsBytes.withUnsafeBufferPointer { try PayloadParser.parse($0, as: .ips, context: ParseContext()).payloads[0] }
        for name in ["ips-joined-by-pid.crash", "ips-joined-by-pid-bug-type-109.ips"] {
            let text = try Self.parse(name)
            #expect(text.payloadID == "FB721707-282C-40DD-C637-DB52790E7532", "\(name)")
            #expect(text.app == ips.app, "\(name)")
            #expect(text.os == ips.os, "\(name)")
            #expect(text.device == ips.device && text.time == ips.time, "\(name)")
            #expect(text.pid == ips.pid && text.launchTime == ips.launchTime, "\(name)")
            #expect(
                text.exception.type == "EXC_BAD_ACCESS" && text.exception.signal == "SIGBUS" && text.exception.code == "EXC_ARM_DA_ALIGN")
            #expect(text.frames.map(\.symbol) == ips.frames.map(\.symbol), "\(name)")
            #expect(text.frames.map(\.image) == ips.frames.map(\.image), "\(name)")
            #expect(text.frames.map(\.offset) == ips.frames.map(\.offset), "\(name): image offsets from the Binary Images load addresses")
            #expect(text.frames.map(\.inApp) == ips.frames.map(\.inApp), "\(name)")
            #expect(
                CrashSignature.make(exception: text.exception, frames: text.frames)
                    == CrashSignature.make(exception: ips.exception, frames: ips.frames))
        }
    }

    @Test("PLCrashReporter text: a bare signal, Crashed Thread and + image names in Binary Images")
    func plCrashReporter() throws {
        let report = try Self.parse("plcrashreporter-sigbus.crash")
        #expect(report.exception.type == "SIGBUS" && report.exception.signal == "SIGBUS")
        #expect(
            CrashSignature.make(exception: report.exception, frames: report.frames).hasPrefix(
                "EXC_BAD_ACCESS/SIGBUS @ ImageCache.decode(_:) < "))
        #expect(report.frames.first?.offset == 4_051_012)
        #expect(report.frames.first?.inApp == true)
        #expect(report.launchTime == nil && report.pid == 53_516)
    }

    @Test("Every sample of one crash, .ips or text, shares one group; a text report joins its trail file as an .ips does")
    func oneGroupAndJoin() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest(
            [TestFiles.samples.appendingPathComponent("reports/ips-joined-by-pid.ips").path, Self.folder.path], store: store, folder: folder
        )
        let records = try store.allRecords()
        #expect(records.count == 4)
        #expect(Set(records.map(\.signature)).count == 1, "\(records.map(\.signature))")
        #expect(Set(records.map(\.format)) == [.ips, .appleText])
        let textOnly = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest(
            [Self.folder.appendingPathComponent("ips-joined-by-pid.crash").path], store: textOnly, folder: folder,
            trails: TestFiles.samples.appendingPathComponent("trails").path)
        #expect(summary.trailsJoined == 1)
        #expect(try textOnly.allRecords().first?.report.trailInfo.source == .joined)
    }

    @Test("A report cut at any line is read as far as it goes or refused with why, never a crash")
    func truncatedAtEveryLine() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("ips-joined-by-pid.crash"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var refused = 0
        for count in 0...lines.count {
            let bytes = Array(lines.prefix(count).joined(separator: "\n").utf8)
            let outcome = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(RejectionError) in try AppleTextParser.parse(buffer) }
            }
            switch outcome {
            case .success(let parsed): #expect(parsed.exception.type == "EXC_BAD_ACCESS", "cut after \(count) lines")
            case .failure(let error):
                refused += 1
                #expect(error.message.contains("Exception Type"), "cut after \(count) lines: \(error)")
            }
        }
        let exceptionLine = try #require(lines.firstIndex { $0.hasPrefix("Exception Type:") })
        #expect(refused == exceptionLine + 1, "the report is refused exactly until its Exception Type line")
        // Not UTF-8, and binary junk after a valid head
        let invalid = Array("Incident Identifier: x\nException Type: SIGSEGV\n".utf8) + [0xFF, 0xFE, 0x00]
        let refusal = invalid.withUnsafeBufferPointer { buffer in Result { () throws(RejectionError) in try AppleTextParser.parse(buffer) }
        }
        if case .success = refusal { Issue.record("text that is not UTF-8 was read") }
    }

    @Test("Apple's ??? is unknown, not a version")
    func unknownVersion() {
        #expect(AppleTextParser.versionAndBuild("??? (???)") == (nil, nil))
        #expect(AppleTextParser.versionAndBuild("???") == (nil, nil))
        #expect(AppleTextParser.versionAndBuild("3.1.0 (???)") == ("3.1.0", nil))
        #expect(AppleTextParser.versionAndBuild("3.1.0 (412)") == ("3.1.0", "412"))
    }

    @Test("Hostile text: a 5 MB frame line, a thousand threads, NUL bytes and garbage after a valid header")
    func hostileText() throws {
        let header = "Incident Identifier: X\nProcess: App [1]\nIdentifier: com.example.app\nException Type: EXC_BAD_ACCESS (SIGSEGV)\n\n"
        let long = header + "Thread 0 Crashed:\n0   App   0x0000000100000010 " + String(repeating: "a", count: 5 << 20) + " + 4\n"
        let threads = header + (0..<1000).map { "Thread \($0)\(($0 == 999) ? " Crashed" : ""):\n0   App   0x10 0x0 + 16\n" }.joined()
        let nuls = header + "Thread 0 Crashed:\n0   App\u{0}\u{0}   0x10 sym + 1\n"
        for text in [long, threads, nuls] {
            let parsed = try AppleTextParser.parse(Array(text.utf8))
            #expect(parsed.frames.count == 1)
        }
        var garbage = Array(header.utf8)
        var generator = SplitMix64(seed: 7)
        garbage += (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Garbage that is not UTF-8 is refused with the reason; it never crashes.
        #expect(throws: RejectionError.self) { try AppleTextParser.parse(garbage) }
    }
}
