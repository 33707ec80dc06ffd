import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail show ID --format apple-text`: a stored report written as an Apple text crash report, which ingest reads
/// back as the same crash.
@Suite("crashtrail show --format apple-text")
struct ShowAppleTextTests {
    @Test("A report written as Apple text is ingested again into the same group, with the same fields")
    func roundTrip() throws {
        // Given KSCrash's JSON of an uncaught NSException, stored
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash/NSException.json").path
        let ingest = try runner.run(["ingest", input, "--quiet", "--store", "first.sqlite"], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let id = "1DFC2552-8F7C-4D14-B0A8-5FE04E5AE35E"

        // When it is shown as Apple text, and that text is ingested into another store
        let text = try runner.run(["show", id, "--format", "apple-text", "--store", "first.sqlite"], directory: folder.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("*** Terminating app due to uncaught exception 'NSInvalidArgumentException'"))
        _ = try folder.write(text.stdout, to: "rendered/report.crash")
        let again = try runner.run(["ingest", "rendered", "--quiet", "--store", "second.sqlite"], directory: folder.url)
        try #require(again.status == 0, "\(again.stderr)")

        // Then both stores show the same crash: group, thread, exceptions and images
        func shown(_ store: String) throws -> JSONValue {
            try JSONParser.parse(try runner.run(["show", id, "--format", "json", "--store", store], directory: folder.url).stdoutBytes)
        }
        let (first, second) = (try shown("first.sqlite"), try shown("second.sqlite"))
        #expect(second["format"] == .string("apple-text"))
        for key in ["signature", "crashedThread", "binaryImages"] { #expect(second[key] == first[key], "\(key)") }
        for key in ["language", "mach", "signal"] { #expect(second["exception"]?[key] == first["exception"]?[key], "exception.\(key)") }
    }

    @Test("A group ID is refused with apple-text, naming how to find a report ID")
    func groupRefused() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = PackageRoot.url.appendingPathComponent("Tests/Fixtures/differential/kscrash/NSException.json").path
        _ = try runner.run(["ingest", input, "--quiet"], directory: folder.url)
        let groups = try #require(
            try JSONParser.parse(try runner.run(["list", "--format", "json"], directory: folder.url).stdoutBytes).arrayValue)
        let group = try #require(groups.first?["id"]?.stringValue)
        let shown = try runner.run(["show", group, "--format", "apple-text"], directory: folder.url)
        #expect(shown.status == 64)
        #expect(shown.stderr.contains("crashtrail list --group \(group)"))
    }
}
