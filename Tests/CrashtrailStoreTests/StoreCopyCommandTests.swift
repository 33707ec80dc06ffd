import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail store copy FROM TO`: a store moves to PostgreSQL and back, verified; a copy that would not match its
/// source, or that cannot start, ends with exit 1 and says why.
@Suite("crashtrail store copy")
struct StoreCopyCommandTests {
    static let manifest = "Samples/PirateBay/Sources/PirateBay/piratebay.yml"

    /// A folder that sees the samples, with the samples ingested into `samples.sqlite`.
    static func ingested() throws -> (CommandRunner, TemporaryFolder) {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("store-copy")
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("Samples"), withDestinationURL: PackageRoot.url.appendingPathComponent("Samples"))
        let ingest = try runner.run(
            ["ingest", "Samples/reports", "--trails", "Samples/trails", "--manifest", manifest, "--store", "samples.sqlite", "--quiet"],
            directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        return (runner, folder)
    }

    @Test("SQLite to PostgreSQL and back: verified, and the copy lists what the source lists", .needsPostgres)
    func roundTrip() throws {
        let postgres = try TestStores.newDatabase()
        let (runner, folder) = try Self.ingested()
        defer { folder.remove() }
        let up = try runner.run(["store", "copy", "samples.sqlite", postgres], directory: folder.url)
        #expect(up.status == 0, "\(up.stderr)")
        #expect(up.stdout.contains("Copied 11 of 11 reports, 1 joined trail and 1 manifest"), "\(up.stdout)")
        #expect(up.stdout.contains("Verified: both hold 11 reports, 1 joined trail, 1 manifest"), "\(up.stdout)")
        let again = try runner.run(["store", "copy", "samples.sqlite", postgres], directory: folder.url)
        #expect(again.status == 0 && again.stdout.contains("Copied 0 of 11 reports"), "\(again.stdout)\(again.stderr)")
        let down = try runner.run(["store", "copy", postgres, "back.sqlite"], directory: folder.url)
        #expect(down.status == 0, "\(down.stderr)")
        for listing in [["list"], ["list", "--reports"], ["paths"], ["replay", "2DCB", "--format", "json"]] {
            let original = try runner.run(listing + ["--store", "samples.sqlite"], directory: folder.url)
            let copied = try runner.run(listing + ["--store", "back.sqlite"], directory: folder.url)
            #expect(original.stdout == copied.stdout && original.status == 0, "\(listing)")
        }
    }

    @Test("A destination that held other reports does not verify: exit 1 with both stores' counts")
    func mismatch() throws {
        let (runner, folder) = try Self.ingested()
        defer { folder.remove() }
        let other = try runner.run(
            ["ingest", "Samples/apple-text", "--store", "other.sqlite", "--quiet", "--quarantine", "q-other"], directory: folder.url)
        try #require(other.status == 0, "\(other.stderr)")
        let copy = try runner.run(["store", "copy", "samples.sqlite", "other.sqlite"], directory: folder.url)
        #expect(copy.status == 1)
        #expect(copy.stderr.contains("the copy does not match its source"), "\(copy.stderr)")
        #expect(copy.stderr.contains("samples.sqlite holds 11 reports"), "\(copy.stderr)")
    }

    @Test(
        "A copy that cannot start says why",
        arguments: [
            (["samples.sqlite", "samples.sqlite"], "FROM and TO are the same store"),
            (["missing.sqlite", "new.sqlite"], "there is no crash store at missing.sqlite"),
            (
                ["samples.sqlite", "postgres://crashtrail@127.0.0.1:1/crashes?sslmode=maybe"],
                "write it as postgres://USER@HOST:PORT/DATABASE"
            ),
        ])
    func refusals(arguments: [String], message: String) throws {
        let (runner, folder) = try Self.ingested()
        defer { folder.remove() }
        let result = try runner.run(["store", "copy"] + arguments, directory: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("new.sqlite").path), "nothing is made")
    }
}
