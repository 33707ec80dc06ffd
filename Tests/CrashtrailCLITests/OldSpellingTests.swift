import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// Every option renamed for one consistent command line keeps working under its old name (docs/INGEST.md, "Old
/// spellings"): each old spelling prints what the new one prints.
@Suite("Old option spellings")
struct OldSpellingTests {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let manifest = samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path
    static let trailFile = samples.appendingPathComponent("trails-golden/trails/sign-in-interrupted.json").path

    /// A store of the samples in a new folder.
    static func store(_ runner: CommandRunner) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let ingest = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "--trails", samples.appendingPathComponent("trails").path,
                "--manifest", manifest,
                "--quiet",
            ], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        return folder
    }

    /// Pairs of (old spelling, new spelling) run on the samples' store, with `GROUP` and `REPORT` replaced by IDs.
    static let pairs: [(old: [String], new: [String])] = [
        (["list", "--version", "3.1.0"], ["list", "--app-version", "3.1.0"]),
        (
            ["list", "--reports", "--version", "3.2.0", "--format", "json"],
            ["list", "--reports", "--app-version", "3.2.0", "--format", "json"]
        ),
        (["show", "REPORT", "--last-steps", "2"], ["show", "REPORT", "--steps", "2"]),
        (["paths", "GROUP"], ["paths", "--group", "GROUP"]),
        (["paths", "--last", "2", "--format", "json"], ["paths", "--screens", "2", "--format", "json"]),
        (
            ["trail", "encode", trailFile, "--to", "text", "--manifest", manifest],
            ["trail", "encode", trailFile, "--format", "ct1", "--manifest", manifest]
        ),
        (["trail", "encode", trailFile, "--to", "keys"], ["trail", "encode", trailFile, "--format", "keys"]),
        (["trail", "inspect", trailFile, "--json"], ["trail", "inspect", trailFile, "--format", "json"]),
    ]

    @Test("Each old spelling prints what its new spelling prints")
    func oldSpellingsWork() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try Self.store(runner)
        defer { folder.remove() }
        let groups = try JSONParser.parse(try runner.run(["list", "--format", "json"], directory: folder.url).stdoutBytes)
        let group = try #require(groups.arrayValue?.first?["id"]?.stringValue)
        let reports = try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdoutBytes)
        let report = try #require(reports.arrayValue?.first { $0["trailInfo"]?["source"]?.stringValue == "embedded" }?["id"]?.stringValue)
        func substituted(_ arguments: [String]) -> [String] {
            arguments.map { $0 == "GROUP" ? group : $0 == "REPORT" ? report : $0 }
        }
        for (old, new) in Self.pairs {
            // When
            let oldRun = try runner.run(substituted(old), directory: folder.url)
            let newRun = try runner.run(substituted(new), directory: folder.url)
            // Then
            #expect(oldRun.status == 0 && newRun.status == 0, "\(old): \(oldRun.stderr) \(newRun.stderr)")
            #expect(!newRun.stdout.isEmpty, "\(new)")
            #expect(oldRun.stdout == newRun.stdout, "\(old) prints other than \(new)")
        }
    }

    @Test("ingest --json prints the summary object that --format json prints")
    func ingestJSON() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reports = Self.samples.appendingPathComponent("reports").path
        let old = try runner.run(["ingest", reports, "--json", "--store", "old.sqlite"], directory: folder.url)
        let new = try runner.run(["ingest", reports, "--format", "json", "--store", "new.sqlite"], directory: folder.url)
        #expect(old.status == 0 && new.status == 0, "\(old.stderr) \(new.stderr)")
        var oldSummary = try #require(try JSONParser.parse(old.stdoutBytes).objectValue)
        var newSummary = try #require(try JSONParser.parse(new.stdoutBytes).objectValue)
        oldSummary["seconds"] = nil
        newSummary["seconds"] = nil
        #expect(oldSummary == newSummary)
        #expect(newSummary["stored"]?.intValue ?? 0 > 0)
    }

    @Test("report --last is --screens: the same site byte for byte")
    func reportLast() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try Self.store(runner)
        defer { folder.remove() }
        #expect(try runner.run(["report", "--html", "old", "--last", "2", "--quiet"], directory: folder.url).status == 0)
        #expect(try runner.run(["report", "--html", "new", "--screens", "2", "--quiet"], directory: folder.url).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.url.appendingPathComponent("new").path).sorted()
        #expect(files.contains("index.html"))
        for file in files {
            let old = FileManager.default.contents(atPath: folder.url.appendingPathComponent("old/\(file)").path)
            let new = FileManager.default.contents(atPath: folder.url.appendingPathComponent("new/\(file)").path)
            #expect(old == new, "\(file)")
        }
    }

    @Test("Reading commands refuse a store that does not exist, name it, and do not create it")
    func missingStore() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let withManifest = ["--manifest", Self.manifest]
        for command in [
            ["list"], ["list", "--reports"], ["show", "ab"], ["paths"] + withManifest, ["report", "--html", "site"] + withManifest,
            ["reprocess"],
        ] {
            let result = try runner.run(command + ["--store", "mistyped.sqlite"], directory: folder.url)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("there is no crash store at mistyped.sqlite"), "\(command): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("mistyped.sqlite").path), "\(command)")
        }
    }

    @Test("replay names the candidates of an ambiguous ID prefix, as show does")
    func ambiguousReplay() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for id in ["aa01", "aa02"] {
            let report =
                #"{"crashtrail":1,"id":"\#(id)","time":"2026-11-03T10:00:00Z","app":{"bundleID":"com.example.piratebay","version":"3.2.0"},"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"}}"#
            _ = try folder.write(report, to: "in/\(id).json")
        }
        #expect(try runner.run(["ingest", "in", "--quiet", "--manifest", Self.manifest], directory: folder.url).status == 0)
        for command in ["replay", "show"] {
            let result = try runner.run([command, "aa0"], directory: folder.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("The candidates:\n  aa01\n  aa02\n"), "\(command): \(result.stderr)")
        }
    }
}
