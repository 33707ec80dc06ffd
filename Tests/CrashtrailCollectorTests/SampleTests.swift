import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReports
import CrashtrailStore
import Foundation
import Testing

/// Every committed sample gets its outcome: stored with its trail from where it rides, or refused.
@Suite("Samples")
struct SampleTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var format: ReportFormat
        var trail: TrailInfo.Source
        var description: String { file }
    }

    static let expectations: [Expectation] = [
        Expectation(file: "crashtrail-ct1-text.json", format: .crashtrail, trail: .embedded),
        Expectation(file: "crashtrail-trail-object.json", format: .crashtrail, trail: .embedded),
        Expectation(file: "sentry-event-contexts-ct1.json", format: .sentryEvent, trail: .embedded),
        Expectation(file: "sentry-event-extra-object.json", format: .sentryEvent, trail: .embedded),
        Expectation(file: "sentry-envelope-binary-attachment.envelope", format: .sentryEnvelope, trail: .embedded),
        Expectation(file: "kscrash-user-ct1.json", format: .kscrash, trail: .embedded),
        Expectation(file: "kscrash-user-split-keys.json", format: .kscrash, trail: .embedded),
        Expectation(file: "crashlytics-export.ndjson:1", format: .crashlytics, trail: .embedded),
        Expectation(file: "crashlytics-export.ndjson:2", format: .crashlytics, trail: .missing),
        Expectation(file: "ips-joined-by-pid.ips", format: .ips, trail: .joined),
        Expectation(file: "sentry-event-no-trail.json", format: .sentryEvent, trail: .missing),
    ]

    @Test func everySampleHasItsOutcome() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = TestFiles.samples.appendingPathComponent("reports")
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest(
            [reports.path], store: store, folder: folder, trails: TestFiles.samples.appendingPathComponent("trails").path)
        #expect(summary.stored == Self.expectations.count)
        #expect(summary.rejectedByReason == ["invalid-json": 1])
        #expect(summary.trailsEmbedded == 8)
        #expect(summary.trailsJoined == 1)
        #expect(summary.trailsMissing == 2)
        #expect(summary.trailsUndecodable == 0)
        let manifest = try TestFiles.manifest()
        for expectation in Self.expectations {
            let record = try #require(
                try store.allRecords().first { $0.source == reports.appendingPathComponent(expectation.file).path },
                "\(expectation.file) was not stored")
            #expect(record.report.format == expectation.format, "\(expectation.file)")
            #expect(record.trailInfo.source == expectation.trail, "\(expectation.file): \(record.trailError ?? "")")
            #expect(record.report.app.bundleID == "com.example.piratebay", "\(expectation.file)")
            #expect(record.report.frames.contains { $0.inApp }, "\(expectation.file)")
            // The trails are valid replays: applying their steps gives their recorded final state.
            if let trail = try record.decodedTrail() {
                var engine = NavigationEngine(manifest: manifest, state: trail.base)
                engine.apply(trail.steps)
                #expect(engine.state == trail.final, "\(expectation.file)")
            }
        }
        let quarantined = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("quarantine").path)
        #expect(quarantined.contains { $0.hasSuffix("malformed-truncated-kscrash.json") })
    }

    @Test func theSameCrashKindGroupsAcrossBuildsAndDevices() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest([TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder)
        let reports = try store.reports()
        // crashtrail-ct1-text.json and sentry-event-no-trail.json are the same crash from other builds and devices.
        let kinds = Dictionary(grouping: reports.filter { $0.format == .crashtrail || $0.format == .sentryEvent }, by: \.signature)
        #expect(kinds.values.contains { group in Set(group.map { $0.app.build ?? "" }).count > 1 })
        #expect(try store.groups().count < reports.count)
    }
}
