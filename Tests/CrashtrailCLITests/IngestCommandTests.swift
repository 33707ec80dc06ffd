import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail ingest`, `list` and `show` on the samples, end to end: the SPEC section 8 JSON contracts,
/// idempotence and exit statuses.
@Suite("crashtrail ingest, list and show")
struct IngestCommandTests {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")

    /// Ingests the samples into a fresh store in `folder` and returns the parsed `--json` summary.
    static func ingest(_ runner: CommandRunner, in folder: TemporaryFolder, extra: [String] = []) throws -> (
        CommandRunner.Result, JSONValue?
    ) {
        let result = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "--trails", samples.appendingPathComponent("trails").path,
                "--manifest", samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path, "--json",
            ] + extra, directory: folder.url)
        return (result, try? JSONParser.parse(result.stdoutBytes))
    }

    static func keys(_ value: JSONValue?) -> [String] {
        (value?.objectValue?.keys).map { $0.sorted() } ?? []
    }

    @Test("The summary has exactly the spec's fields; a second run stores nothing new")
    func summaryAndIdempotence() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // When
        let (first, summary) = try Self.ingest(runner, in: folder)
        let (second, again) = try Self.ingest(runner, in: folder)
        // Then
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.keys(summary) == ["duplicates", "inputs", "rejected", "rejectedByReason", "seconds", "stored", "trails"])
        #expect(Self.keys(summary?["trails"]) == ["embedded", "joined", "missing", "undecodable"])
        #expect(summary?["stored"] == 11)
        #expect(summary?["rejected"] == 1)
        #expect(summary?["trails"]?["joined"] == 1)
        #expect(first.stdout == CanonicalJSON.string(of: try #require(summary)) + "\n")
        #expect(second.status == 0)
        #expect(again?["stored"] == 0)
        #expect(again?["duplicates"] == 11)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("crashtrail.sqlite").path))
    }

    @Test("--strict exits non-zero when an input was rejected; without it the job succeeds")
    func strict() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (result, summary) = try Self.ingest(runner, in: folder, extra: ["--strict"])
        #expect(summary?["rejected"] == 1)
        #expect(result.status != 0)
    }

    @Test("list and show print the spec's JSON, canonical and newline-terminated")
    func listAndShow() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.ingest(runner, in: folder)
        // When
        let groups = try runner.run(["list", "--format", "json"], directory: folder.url)
        let reports = try runner.run(["list", "--reports", "--format", "json"], directory: folder.url)
        // Then
        let groupArray = try #require(try JSONParser.parse(groups.stdoutBytes).arrayValue)
        #expect(!groupArray.isEmpty)
        #expect(groupArray.allSatisfy { Self.keys($0) == ["count", "firstSeen", "id", "lastSeen", "signature", "versions", "withTrail"] })
        #expect(groupArray.reduce(0) { $0 + ($1["count"]?.intValue ?? 0) } == 11)
        let counts = groupArray.compactMap { $0["count"]?.intValue }
        #expect(counts == counts.sorted(by: >), "groups come by count first")
        let reportArray = try #require(try JSONParser.parse(reports.stdoutBytes).arrayValue)
        #expect(reportArray.count == 11)
        #expect(reportArray.allSatisfy { Self.keys($0) == ["exception", "format", "id", "signature", "time", "trailInfo"] })
        for output in [groups, reports] {
            #expect(output.stdout == CanonicalJSON.string(of: try JSONParser.parse(output.stdoutBytes)) + "\n")
        }
        // show, by a unique prefix
        let id = try #require(reportArray.first?["id"]?.stringValue)
        let shown = try runner.run(["show", String(id.prefix(6)), "--format", "json"], directory: folder.url)
        #expect(shown.status == 0, "\(shown.stderr)")
        let report = try JSONParser.parse(shown.stdoutBytes)
        // SPEC section 8's fields, and the additions docs/INGEST.md lists (crashedThread, binaryImages, exception.mach
        // and exception.language; exceptionBacktrace only when there is one).
        #expect(
            Self.keys(report).filter { $0 != "exceptionBacktrace" }
                == [
                    "app", "binaryImages", "crashedThread", "device", "exception", "format", "frames", "id", "os", "signature", "time",
                    "trailInfo",
                ])
        #expect(report["id"]?.stringValue == id)
        #expect(Self.keys(report["trailInfo"]) == ["error", "source", "steps"])
        #expect(Self.keys(report["exception"]) == ["code", "language", "mach", "reason", "signal", "type"])
    }

    @Test("Groups have IDs (SPEC section 13); list --group takes one or a unique prefix and lists that group's reports")
    func groupIDs() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.ingest(runner, in: folder)
        let groups = try #require(
            try JSONParser.parse(try runner.run(["list", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        let reports = try #require(
            try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        for group in groups {
            // The ID is the first 12 hex digits of the SHA-256 of the signature, computed here by sha256sum's rule
            let signature = try #require(group["signature"]?.stringValue)
            let id = try #require(group["id"]?.stringValue)
            #expect(id.count == 12 && id.allSatisfy(\.isHexDigit) && id == id.lowercased())
            // When the group's reports are listed by a prefix of its ID
            let listed = try runner.run(["list", "--group", String(id.prefix(8)), "--format", "json"], directory: folder.url)
            // Then they are exactly the reports with its signature, in the same order
            #expect(listed.status == 0, "\(listed.stderr)")
            let expected = reports.filter { $0["signature"]?.stringValue == signature }
            #expect(try JSONParser.parse(listed.stdoutBytes).arrayValue == expected, "\(id)")
            #expect(Int64(expected.count) == group["count"]?.intValue)
        }
        // An ID no group has, or a prefix shared by several, exits 1 and says what to do
        let unknown = try runner.run(["list", "--group", "zzzz"], directory: folder.url)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no crash group has an ID starting with \"zzzz\""), "\(unknown.stderr)")
        let text = try runner.run(["list"], directory: folder.url)
        #expect(text.stdout.hasPrefix("GROUP "))
        for group in groups { #expect(text.stdout.contains(group["id"]?.stringValue ?? "?")) }
    }

    @Test("--manifest takes a folder of manifests, as replay and trail do")
    func manifestFolder() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runner.run(
            [
                "ingest", Self.samples.appendingPathComponent("reports").path, "--trails",
                Self.samples.appendingPathComponent("trails").path, "--manifest",
                Self.samples.appendingPathComponent("PirateBay/Sources/PirateBay").path, "--json",
            ], directory: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONParser.parse(result.stdoutBytes)
        #expect(summary["stored"] == 11)
        #expect(summary["trails"]?["undecodable"] == 0)
    }

    @Test("show with an unknown ID exits 1 and says how to list IDs")
    func showUnknown() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.ingest(runner, in: folder)
        let result = try runner.run(["show", "zzzz"], directory: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("zzzz"))
    }
}
