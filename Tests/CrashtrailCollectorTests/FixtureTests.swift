import CrashtrailCore
import Foundation
import Testing

@testable import CrashtrailFormats
@testable import CrashtrailIntake
@testable import CrashtrailReports
@testable import CrashtrailStore

/// Every real file in `../shared/fixtures/` gets the outcome its SOURCES.md row names.
@Suite("Real crash files from public projects")
struct FixtureTests {
    /// Ingests one fixture into a fresh store.
    private func ingest(_ name: String) throws -> (IngestSummary, ReportStore, URL) {
        let fixtures = try TestFiles.requiredFixtures()
        let folder = try TestFiles.temporaryFolder()
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([fixtures.appendingPathComponent(name).path], store: store, folder: folder)
        return (summary, store, folder)
    }

    @Test(.needsFixtures) func ipsBreakpointIsStoredWithItsTopFrame() throws {
        let (summary, store, folder) = try ingest("ips/idb-xctest-sim-ios15-breakpoint.ips")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 1)
        #expect(summary.trailsMissing == 1)
        let report = try store.record(matchingPrefix: "FC4D11AC").report
        #expect(report.id == "FC4D11AC-D309-4C8E-816E-7B6E676A86BB")
        #expect(report.format == .ips)
        #expect(report.exception.type == "EXC_BREAKPOINT")
        #expect(report.exception.signal == "SIGTRAP")
        #expect(report.frames.first?.symbol == "-[TpxUnitTests testExample1]")
        #expect(report.frames.first?.image == "TpxUnitTests")
        #expect(report.frames.first?.offset == 4752)
        #expect(report.os == CrashReport.OS(name: "macOS", version: "12.3.1"))
        #expect(report.device == "MacBookPro18,2")
        #expect(report.time == "2022-04-20T13:36:33.5767Z")
        #expect(report.trailInfo == .missing)
        #expect(report.signature.hasPrefix("EXC_BREAKPOINT/SIGTRAP @ -[TpxUnitTests testExample1] < "))
    }

    @Test(.needsFixtures) func sentryEventWithAllFieldsIsStored() throws {
        let (summary, store, folder) = try ingest("sentry/sentry-java-event-all-fields.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 1)
        let record = try store.record(matchingPrefix: "afcb46b1")
        #expect(record.report.format == .sentryEvent)
        #expect(record.report.time == "1942-07-09T12:55:34.000Z")
        #expect(record.report.exception.type == "32a4ff49-f989-4698-964e-d0f7904026c4")
        #expect(record.report.frames.first?.symbol == "e8944b85-094a-4bb3-8c72-8bf94cb6e216")
        // Nothing is lost: the raw payload comes back byte for byte.
        let original = try Data(
            contentsOf: try TestFiles.requiredFixtures().appendingPathComponent("sentry/sentry-java-event-all-fields.json"))
        #expect(try record.rawPayload() == [UInt8](original))
    }

    @Test(.needsFixtures) func envelopeWithTruncatedEventIsRefusedNamingTheItem() throws {
        let (summary, store, folder) = try ingest("sentry/sentry-java-envelope-event-2attachments.envelope")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 0)
        #expect(summary.rejectedByReason == ["invalid-envelope": 1])
        #expect(try store.allRecords().isEmpty)
        let reason = try String(
            contentsOf: folder.appendingPathComponent("quarantine").appendingPathComponent(
                try #require(
                    try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("quarantine").path)
                        .first { $0.hasSuffix(".reason.txt") })), encoding: .utf8)
        #expect(reason.contains("item 0 (event, 107 bytes)"))
        #expect(!reason.contains("framing is broken"))
    }

    @Test(.needsFixtures) func envelopeFramingHonoursLengthsWithNewlines() throws {
        let fixtures = try TestFiles.requiredFixtures()
        let bytes = [UInt8](
            try Data(contentsOf: fixtures.appendingPathComponent("sentry/sentry-java-envelope-event-2attachments.envelope")))
        let items = try bytes.withUnsafeBufferPointer { buffer in
            let headerEnd = try #require(buffer.firstIndex(of: UInt8(ascii: "\n"))) + 1
            return try SentryEnvelopeParser.frame(buffer, from: headerEnd, context: ParseContext())
        }
        #expect(items.map(\.type) == ["event", "attachment", "attachment"])
        #expect(items.map(\.payload.count) == [107, 61, 29])
    }

    @Test(.needsFixtures) func kscrashNSExceptionIsStored() throws {
        let (summary, store, folder) = try ingest("kscrash/ks-nsexception.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 1)
        let report = try store.record(matchingPrefix: "1DFC2552").report
        #expect(report.format == .kscrash)
        #expect(report.exception.type == "EXC_CRASH")
        #expect(report.exception.language?.name == "NSInvalidArgumentException")
        #expect(report.exception.signal == "SIGABRT")
        #expect(report.exception.reason?.hasPrefix("-[__NSArrayI objectForKey:]") == true)
        #expect(report.app == CrashReport.App(bundleID: "org.stenerud.Crash-Tester", version: "1.0", build: "1.0"))
        #expect(report.frames.first?.symbol == "__exceptionPreprocess")
        #expect(report.trailInfo == .missing)
    }

    @Test(.needsFixtures) func kscrashMemoryTerminationWithoutFramesGetsASignature() throws {
        let (summary, store, folder) = try ingest("kscrash/ks-oom-v3.3.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 1)
        let report = try store.record(matchingPrefix: "A686D4F9").report
        #expect(report.frames.isEmpty)
        #expect(!report.signature.isEmpty)
        #expect(report.signature.contains("SIGKILL"))
        #expect(report.time == "2024-05-20T17:36:04.474658Z")
        #expect(report.os == CrashReport.OS(name: "visionOS", version: "1.1"))
    }

    @Test(.needsFixtures) func sentryCrashBadAccessIsStored() throws {
        let (summary, store, folder) = try ingest("kscrash/sentrycrash-bad-access-breadcrumbs.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(summary.stored == 1)
        let report = try store.record(matchingPrefix: "42A64046").report
        #expect(report.exception.type == "EXC_BAD_ACCESS")
        #expect(report.exception.signal == "SIGBUS")
        #expect(report.device == "iPhone11,8")
        #expect(report.trailInfo == .missing)
    }

    @Test(.needsFixtures) func metricKitCrashDiagnosticsAreStoredOneReportEach() throws {
        let (summary, store, folder) = try ingest("metrickit/meter-real-ios14-2crashes.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two crash diagnostics: two reports, named by the payload's digest and their index
        #expect(summary.stored == 2)
        #expect(summary.rejected == 0)
        let bytes = Array(
            try Data(contentsOf: try TestFiles.requiredFixtures().appendingPathComponent("metrickit/meter-real-ios14-2crashes.json")))
        let digest = bytes.withUnsafeBufferPointer { PayloadDigest.sha256($0) }
        let first = try #require(try store.record(id: "\(digest).0")).report
        let second = try #require(try store.record(id: "\(digest).1")).report
        #expect(first.format == .metrickit && second.format == .metrickit)
        #expect(first.exception.type == "EXC_BREAKPOINT" && first.exception.signal == "SIGTRAP")
        #expect(second.exception.type == "EXC_BAD_ACCESS" && second.exception.signal == "SIGSEGV")
        #expect(first.signature.hasPrefix("EXC_BREAKPOINT/SIGTRAP @ "))
        #expect(second.signature.hasPrefix("EXC_BAD_ACCESS/SIGSEGV @ MetricKitTest+"), "\(second.signature)")
        for report in [first, second] {
            #expect(report.app == CrashReport.App(bundleID: nil, version: "1.0", build: "1"))
            #expect(report.os == CrashReport.OS(name: "iPhone OS", version: "14.0.1"))
            #expect(report.device == "iPhone10,2")
            #expect(report.time == "2020-10-11T03:59:00Z")
            #expect(report.frames.count > 5)
        }
        // The crashing frame is the attributed stack's root, named by image and offset into it
        #expect(second.frames.first == StackFrame(image: "MetricKitTest", symbol: nil, offset: 4_304_003_120 - 4_303_978_496, inApp: true))
        // Reprocessing derives each report from the shared payload as itself
        let reprocessed = try store.reprocess(with: PayloadDeriver(decoder: try TestFiles.codec()))
        #expect(reprocessed.changed == 0 && reprocessed.unreadable.isEmpty)
        #expect(try store.record(id: "\(digest).1")?.report == second)
        // Again: both are duplicates
        let again = try TestFiles.ingest(
            [try TestFiles.requiredFixtures().appendingPathComponent("metrickit").path], store: store, folder: folder)
        #expect(again.stored == 0 && again.duplicates >= 1)
    }

    @Test func metricKitDiagnosticsThatAreNotCrashesAreCountedAndSkipped() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload =
            #"{"timeStampBegin":"2020-10-10 04:00:00 +0000","timeStampEnd":"2020-10-11 03:59:00 +0000","hangDiagnostics":[{"version":"1.0.0"},{"version":"1.0.0"}],"cpuExceptionDiagnostics":[{"version":"1.0.0"}],"diskWriteExceptionDiagnostics":[{"version":"1.0.0"}]}"#
        try Data(payload.utf8).write(to: folder.appendingPathComponent("hangs.json"))
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([folder.appendingPathComponent("hangs.json").path], store: store, folder: folder)
        #expect(summary.stored == 0)
        #expect(summary.rejected == 0)
        #expect(summary.skippedDiagnostics == 4)
    }
}
