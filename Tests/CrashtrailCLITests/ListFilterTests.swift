import CrashtrailCore
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail list` filters: --app, --version, --since, --until, --limit, alone and together, against the reports
/// chosen here from the stored rows.
@Suite("crashtrail list filters")
struct ListFilterTests {
    static let manifestPath = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path

    @Test("Each filter and their combination keep exactly the matching reports and groups")
    func filters() throws {
        // Given a generated store of 200 reports over three versions and ten hours
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let generator = try #require(CommandRunner.locate(named: "crashtrail-corpus"), "the crashtrail-corpus executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let made = try generator.run(
            ["corpus", "corpus", "--count", "200", "--seed", "3", "--manifest", Self.manifestPath], directory: folder.url)
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try runner.run(["ingest", "corpus/reports", "--quiet"], directory: folder.url).status == 0)
        let records = try ReportStore.open(path: folder.url.appendingPathComponent("crashtrail.sqlite").path).allRecords()
        func milliseconds(_ text: String) -> Int64 { Timestamp.milliseconds(parsing: text) ?? 0 }
        let cases: [(arguments: [String], keep: (ReportRecord) -> Bool)] = [
            (["--version", "3.1.1"], { $0.appVersion == "3.1.1" }),
            (["--app", "com.example.piratebay"], { $0.bundleID == "com.example.piratebay" }),
            (["--app", "com.example.other"], { _ in false }),
            (["--since", "2026-11-02T12:00:00Z"], { ($0.time.map(milliseconds) ?? .min) >= milliseconds("2026-11-02T12:00:00Z") }),
            (["--until", "2026-11-02T12:00:00.500Z"], { ($0.time.map(milliseconds) ?? .max) <= milliseconds("2026-11-02T12:00:00.500Z") }),
            (["--since", "2026-11-02"], { $0.time != nil }),
            (["--until", "2026-11-01"], { _ in false }),
            (
                ["--version", "3.2.0", "--since", "2026-11-02T10:00:00Z", "--until", "2026-11-02T15:30:00Z"],
                {
                    $0.appVersion == "3.2.0" && ($0.time.map(milliseconds) ?? .min) >= milliseconds("2026-11-02T10:00:00Z")
                        && ($0.time.map(milliseconds) ?? .max) <= milliseconds("2026-11-02T15:30:00Z")
                }
            ),
        ]
        var narrowing = 0
        for (arguments, keep) in cases {
            // When the reports and the groups are listed with the filter
            let reports = try JSONParser.parse(
                try runner.run(["list", "--reports", "--format", "json"] + arguments, directory: folder.url).stdoutBytes)
            let groups = try #require(
                try JSONParser.parse(try runner.run(["list", "--format", "json"] + arguments, directory: folder.url).stdoutBytes).arrayValue
            )
            // Then the reports are exactly those kept, and the groups count exactly them
            let expected = Set(records.filter(keep).map(\.id))
            if !expected.isEmpty, expected.count < records.count { narrowing += 1 }
            let listed = Set((reports.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            #expect(listed == expected, "\(arguments): \(listed.count) listed, \(expected.count) expected")
            #expect(groups.compactMap { $0["count"]?.intValue }.reduce(0, +) == Int64(expected.count), "\(arguments)")
            for group in groups {
                let signature = group["signature"]?.stringValue
                let versions = Set(records.filter { keep($0) && $0.signature == signature }.compactMap(\.appVersion))
                #expect(Set((group["versions"]?.arrayValue ?? []).compactMap(\.stringValue)) == versions, "\(arguments)")
            }
        }
        #expect(records.count == 200)
        #expect(narrowing >= 4, "only \(narrowing) filters kept some but not all reports: the cases test too little")
        // --limit keeps the first N in list order
        let all = try #require(
            try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        let limited = try JSONParser.parse(
            try runner.run(["list", "--reports", "--limit", "7", "--format", "json"], directory: folder.url).stdoutBytes)
        #expect(limited.arrayValue == Array(all.prefix(7)))
        let groups = try #require(
            try JSONParser.parse(try runner.run(["list", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        #expect(
            try JSONParser.parse(try runner.run(["list", "--limit", "2", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue
                == Array(groups.prefix(2)))
        // The text tables fit 100 columns, long signatures and IDs cut with an ellipsis
        for arguments in [["list"], ["list", "--reports"]] {
            let text = try runner.run(arguments, directory: folder.url).stdout
            let lines = text.split(separator: "\n")
            #expect(lines.count > 5)
            for line in lines { #expect(line.count <= 100, "\(arguments): \(line.count) characters: \(line)") }
        }
        // Nothing matching says so, not that the store is empty
        let none = try runner.run(["list", "--app", "com.example.other"], directory: folder.url)
        #expect(none.stdout.contains("No stored crash matches these filters"), "\(none.stdout)")
    }

    @Test(
        "Bad filter values exit 64 and say what they take",
        arguments: [
            (["--since", "yesterday"], "--since takes a date such as 2026-11-02"), (["--until", "2026-02-30"], "--until takes a date"),
            (["--limit", "0"], "--limit takes a count of 1 or more"),
            (["--since", "2026-11-03", "--until", "2026-11-02"], "is after --until"),
        ])
    func badValues(arguments: [String], message: String) throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runner.run(["list"] + arguments, directory: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
