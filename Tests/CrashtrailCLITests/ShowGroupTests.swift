import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail show GROUP`: a group's counts by version and day and its reports; how an ID that could name a group
/// or a report is resolved.
@Suite("crashtrail show GROUP")
struct ShowGroupTests {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")

    /// A store of the samples plus one crashtrail report whose ID starts like the `EXC_BAD_ACCESS/SIGSEGV` group's.
    static func store(_ runner: CommandRunner, in folder: TemporaryFolder) throws -> String {
        let groupID = "5790f65c81bf"
        let lookalike =
            #"{"crashtrail":1,"id":"5790f65cff","time":"2026-11-03T10:00:00Z","app":{"bundleID":"com.example.piratebay","version":"3.2.0"},"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"}}"#
        _ = try folder.write(lookalike, to: "extra/lookalike.json")
        let ingest = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "extra", "--trails",
                samples.appendingPathComponent("trails").path, "--quiet",
            ],
            directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        return groupID
    }

    @Test("A group ID or prefix shows the group: counts by version and day that add up, and exactly its reports")
    func showsTheGroup() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let groupID = try Self.store(runner, in: folder)
        let groups = try #require(
            try JSONParser.parse(try runner.run(["list", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        try #require(groups.contains { $0["id"]?.stringValue == groupID }, "the samples' EXC_BAD_ACCESS/SIGSEGV group is \(groupID)")
        for group in groups {
            let id = try #require(group["id"]?.stringValue)
            // When
            let shown = try runner.run(["show", id, "--format", "json"], directory: folder.url)
            // Then
            #expect(shown.status == 0, "\(shown.stderr)")
            let detail = try JSONParser.parse(shown.stdoutBytes)
            #expect(
                detail.objectValue.map { $0.keys.sorted() }
                    == [
                        "byDay", "byVersion", "count", "firstSeen", "id", "lastSeen", "moreReports", "reports", "signature", "versions",
                        "withTrail",
                    ])
            let count = try #require(group["count"]?.intValue)
            #expect(detail["count"]?.intValue == count)
            #expect((detail["byVersion"]?.objectValue?.values.compactMap(\.intValue) ?? []).reduce(0, +) == count)
            #expect((detail["byDay"]?.objectValue?.values.compactMap(\.intValue) ?? []).reduce(0, +) == count)
            let listed = try JSONParser.parse(
                try runner.run(["list", "--group", id, "--format", "json"], directory: folder.url).stdoutBytes)
            #expect(detail["reports"] == listed)
            #expect(detail["moreReports"] == .int(0))
            // The store's counts by day are the reports' own days
            var days: [String: Int64] = [:]
            for report in listed.arrayValue ?? [] {
                days[report["time"]?.stringValue.map { String($0.prefix(10)) } ?? "unknown", default: 0] += 1
            }
            #expect(detail["byDay"] == .object(days.mapValues(JSONValue.int)))
            // A page of one: the newest report, the rest counted as more, the counts whole
            let page = try JSONParser.parse(
                try runner.run(["show", id, "--format", "json", "--limit", "1"], directory: folder.url).stdoutBytes)
            #expect(page["reports"]?.arrayValue == listed.arrayValue.map { Array($0.prefix(1)) })
            #expect(page["moreReports"] == .int(Int64(count - 1)))
            #expect(page["byVersion"] == detail["byVersion"] && page["byDay"] == detail["byDay"])
        }
        let text = try runner.run(["show", groupID], directory: folder.url)
        #expect(text.stdout.hasPrefix("Group      \(groupID)\n"), "\(text.stdout)")
        #expect(
            text.stdout.contains("By app version:") && text.stdout.contains("By day (UTC):")
                && text.stdout.contains("  2026-11-02      3 reports\n"))
    }

    @Test("A whole report ID is the report; a prefix of both a group ID and a report ID is refused, naming both")
    func resolvesIDs() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let groupID = try Self.store(runner, in: folder)
        let report = try runner.run(["show", "5790f65cff", "--format", "json"], directory: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try JSONParser.parse(report.stdoutBytes)["id"]?.stringValue == "5790f65cff")
        let both = try runner.run(["show", "5790F65C"], directory: folder.url)
        #expect(both.status == 1)
        #expect(both.stderr.contains("starts both the group ID \(groupID) and the report ID 5790f65cff"), "\(both.stderr)")
        let group = try runner.run(["show", String(groupID.prefix(9))], directory: folder.url)
        #expect(group.status == 0, "\(group.stderr)")
        #expect(group.stdout.hasPrefix("Group      \(groupID)"))
        let nothing = try runner.run(["show", "nothing-here"], directory: folder.url)
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("no stored report has an ID starting with \"nothing-here\""), "\(nothing.stderr)")
    }
}
