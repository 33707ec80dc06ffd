import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import SnapshotTesting
import Testing

/// Every sample crash report replays, once ingested, by its stored ID in every format to its golden file.
///
/// The reports are `Samples/reports/` with the separate trails of `Samples/trails/`; the goldens are in
/// `Samples/trails-golden/golden/reports/`. A report without a trail pins the command's error instead.
/// Each report file is also replayed directly (`crashtrail replay FILE --format json`).
///
/// Re-record with `SNAPSHOT_TESTING_RECORD=failed swift test`; with `CI` set nothing is ever recorded.
@Suite("Golden replays of the sample reports")
struct GoldenReportReplayTests {
    static let folder = GoldenSamples.goldenFolder.appendingPathComponent("reports")
    static let formats: [(name: String, fileExtension: String)] = [
        ("json", "json"), ("text", "txt"), ("urls", "urls.txt"), ("simctl", "sh"), ("xcuitest", "swift"), ("html", "html"),
    ]

    /// The sample report files and the separate trail files (binary `.ctr`, `ct1:` text), relative to the
    /// package root.
    static var reportFiles: [String] {
        ["Samples/reports", "Samples/trails"].flatMap { folder in
            let url = GoldenSamples.packageRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    /// Compares `output` with the golden file `reports/replay.<name>.<ext>`, recording it when allowed.
    static func assertGolden(_ output: String, named name: String, fileExtension: String) {
        var strategy = Snapshotting<String, String>.lines
        strategy.pathExtension = fileExtension
        let failure = verifySnapshot(
            of: output, as: strategy, named: name, record: GoldenReplayFileTests.recordMode,
            snapshotDirectory: folder.path, testName: "replay")
        if let failure { Issue.record(Comment(rawValue: failure)) }
    }

    @Test("there are sample reports to pin")
    func samplesExist() {
        #expect(Self.reportFiles.count >= 6, "expected the sample reports under Samples/reports and trails under Samples/trails")
    }

    @Test("every stored sample report replays by its ID to its golden files")
    func storedReports() throws {
        // Given the sample reports and separate trails ingested into a fresh store
        let runner = try ReplayCommandTests.runner()
        let temporary = try TemporaryFolder("replay-reports")
        defer { temporary.remove() }
        let store = temporary.url.appendingPathComponent("store.sqlite").path
        let ingest = try runner.run(
            ["ingest", "Samples/reports", "--trails", "Samples/trails", "--store", store, "--quiet"]
                + ReplayCommandTests.manifestArguments,
            directory: GoldenSamples.packageRoot)
        try #require(ingest.status == 0 || ingest.status == 2, "ingest failed: \(ingest.stderr)")
        let list = try runner.run(["list", "--reports", "--format", "json", "--store", store])
        try #require(list.status == 0, "list failed: \(list.stderr)")
        guard case .array(let reports) = try JSONParser.parse(list.stdoutBytes) else {
            Issue.record("list --reports --format json printed no array")
            return
        }
        let ids = reports.compactMap { $0["id"]?.stringValue }.sorted()
        #expect(ids.count >= 5)
        var replayed = 0
        for id in ids {
            // When each is replayed by its ID in every format
            for format in Self.formats {
                let result = try runner.run(
                    ["replay", id, "--store", store, "--format", format.name] + ReplayCommandTests.manifestArguments,
                    directory: GoldenSamples.packageRoot)
                // Then the output is the golden file, or the error is the pinned one
                if result.status == 0 {
                    #expect(result.stderr.isEmpty, "\(id) \(format.name): \(result.stderr)")
                    Self.assertGolden(result.stdout, named: id, fileExtension: format.fileExtension)
                    if format.name == "json" { replayed += 1 }
                } else {
                    #expect(result.stdout.isEmpty)
                    Self.assertGolden(
                        "exit \(result.status)\n\(result.stderr)", named: id, fileExtension: "error.txt")
                    break
                }
            }
        }
        #expect(replayed >= 5, "only \(replayed) stored sample reports had a trail to replay")
    }

    @Test("every sample report or trail file replays directly, or says why it cannot", arguments: reportFiles)
    func reportFile(_ path: String) throws {
        let file = String(path.split(separator: "/").last ?? "")
        let runner = try ReplayCommandTests.runner()
        let result = try runner.run(
            ["replay", path, "--format", "json"] + ReplayCommandTests.manifestArguments,
            directory: GoldenSamples.packageRoot)
        if result.status == 0 {
            #expect(result.stderr.isEmpty, "\(file): \(result.stderr)")
            Self.assertGolden(result.stdout, named: "file.\(file)", fileExtension: "json")
        } else {
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("Error: "), "\(file): \(result.stderr)")
            Self.assertGolden("exit \(result.status)\n\(result.stderr)", named: "file.\(file)", fileExtension: "error.txt")
        }
    }
}
