import CrashtrailCore
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// The store keeps its manifests: no trail is lost for want of one, and stored reports replay without --manifest.
@Suite("Manifests in the store")
struct StoredManifestTests {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let manifest = samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path

    static func withTrail(_ runner: CommandRunner, in folder: TemporaryFolder) throws -> Int {
        let reports = try #require(
            try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        return reports.filter { ["embedded", "joined"].contains($0["trailInfo"]?["source"]?.stringValue ?? "") }.count
    }

    @Test(
        "A crash ingested without its manifest replays with no --manifest once the manifest arrives",
        arguments: [["manifest", "add", manifest], ["ingest", samples.appendingPathComponent("reports").path, "--manifest", manifest]])
    func manifestArrivesLater(later: [String]) throws {
        // Given the samples ingested without any manifest: their trails cannot be decoded yet
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try runner.run(["ingest", Self.samples.appendingPathComponent("reports").path, "--json"], directory: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try JSONParser.parse(first.stdoutBytes)["trails"]?["undecodable"]?.intValue == 6, "\(first.stdout)")
        #expect(try Self.withTrail(runner, in: folder) == 2)
        let before = try runner.run(["replay", "2DCB"], directory: folder.url)
        #expect(before.status == 1)
        #expect(before.stderr.contains("crashtrail manifest add"), "\(before.stderr)")
        // When the manifest arrives
        let arrival = try runner.run(later, directory: folder.url)
        #expect(arrival.status == 0, "\(arrival.stderr)")
        #expect(arrival.stdout.contains("6"), "\(arrival.stdout)")
        // Then every waiting trail is decoded, and a stored report replays with no --manifest, as with one
        #expect(try Self.withTrail(runner, in: folder) == 8)
        let replay = try runner.run(["replay", "2DCB", "--format", "json"], directory: folder.url)
        #expect(replay.status == 0, "\(replay.stderr)")
        let explicit = try runner.run(["replay", "2DCB", "--format", "json", "--manifest", Self.manifest], directory: folder.url)
        #expect(replay.stdout == explicit.stdout)
        #expect(try runner.run(["paths"], directory: folder.url).status == 0)
        // And the joined trail that was refused for want of the manifest joins on the next run with --trails
        let rerun = try runner.run(
            [
                "ingest", Self.samples.appendingPathComponent("reports").path, "--trails",
                Self.samples.appendingPathComponent("trails").path, "--json",
            ],
            directory: folder.url)
        #expect(try JSONParser.parse(rerun.stdoutBytes)["trails"]?["joined"]?.intValue == 1, "\(rerun.stdout)")
        #expect(try Self.withTrail(runner, in: folder) == 9)
    }

    @Test("manifest add is idempotent and names the dictionary ID; a bad manifest is refused and nothing is stored")
    func addTwice() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try runner.run(["manifest", "add", Self.manifest], directory: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("added: com.example.piratebay, dictionary ID 1ea41409"), "\(first.stdout)")
        let second = try runner.run(["manifest", "add", Self.manifest], directory: folder.url)
        #expect(second.stdout.contains("already stored"), "\(second.stdout)")
        let bad = try folder.write("app: x\ndestinations:\n  a: { url: \"x://a\", requires: nowhere }\n", to: "bad.yml")
        let refused = try runner.run(["manifest", "add", bad.path], directory: folder.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: "), "\(refused.stderr)")
    }

    @Test("replay warns when the manifest is another version than the one the trail was recorded with, naming both")
    func warnsAboutAnotherManifestVersion() throws {
        // Given the samples stored with their manifest, and another version of it (one more destination)
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ingest = try runner.run(
            ["ingest", Self.samples.appendingPathComponent("reports").path, "--manifest", Self.manifest, "--quiet"], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let original = try String(contentsOfFile: Self.manifest, encoding: .utf8)
        let other = try folder.write(original + "  settingsNew: { url: \"piratebay://settings/new\" }\n", to: "other.yml")
        // When a report whose trail rode as ct1: text (dictionary 1ea41409) is replayed with each
        let withOther = try runner.run(["replay", "3304D23D", "--manifest", other.path, "--format", "urls"], directory: folder.url)
        let withStored = try runner.run(["replay", "3304D23D", "--format", "urls"], directory: folder.url)
        // Then only the other version draws a warning, which names both dictionary IDs; the replay still runs
        #expect(withOther.status == 0, "\(withOther.stderr)")
        #expect(withOther.stderr.contains("recorded with another version of the manifest (dictionary ID 1ea41409)"), "\(withOther.stderr)")
        #expect(withOther.stderr.contains(other.path))
        #expect(withStored.status == 0 && withStored.stderr.isEmpty, "\(withStored.stderr)")
        // A trail that rode as a JSON object names no manifest, so there is nothing to compare
        let objectTrail = try runner.run(["replay", "2DCB", "--manifest", other.path, "--format", "urls"], directory: folder.url)
        #expect(objectTrail.status == 0 && !objectTrail.stderr.contains("another version"), "\(objectTrail.stderr)")
    }

    @Test("The dictionary ID a trail rode with is stored with it: replay of a stored report never reads the payload again")
    func dictionaryIDIsStored() throws {
        // Given the samples stored with their manifest
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ingest = try runner.run(
            [
                "ingest", Self.samples.appendingPathComponent("reports").path, "--trails",
                Self.samples.appendingPathComponent("trails").path,
                "--manifest", Self.manifest, "--quiet",
            ], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let store = try ReportStore.open(path: folder.url.appendingPathComponent("crashtrail.sqlite").path)
        // Then the ct1: trail's dictionary ID is in its row, and the trail joined from a binary file keeps its own
        let riding = try store.record(matchingPrefix: "3304D23D")
        #expect(riding.trailDictionary.map { $0.hasPrefix("1ea41409") } == true, "\(String(describing: riding.trailDictionary))")
        let joined = try store.allRecords().filter { $0.trailSource == .joined }
        #expect(!joined.isEmpty && joined.allSatisfy { $0.trailDictionary != nil }, "\(joined.map(\.trailDictionary))")

        // When the stored payload is damaged, and the report is replayed with another version of the manifest
        try store.write { db in try db.execute("UPDATE report SET payload = X'00' WHERE id = ?", [.text(riding.id)]) }
        let original = try String(contentsOfFile: Self.manifest, encoding: .utf8)
        let other = try folder.write(original + "  settingsNew: { url: \"piratebay://settings/new\" }\n", to: "other.yml")
        let replay = try runner.run(["replay", riding.id, "--manifest", other.path, "--format", "urls"], directory: folder.url)

        // Then the replay still warns of the other version: the dictionary ID came from the row, not the payload
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("recorded with another version of the manifest (dictionary ID 1ea41409"), "\(replay.stderr)")
    }
}
