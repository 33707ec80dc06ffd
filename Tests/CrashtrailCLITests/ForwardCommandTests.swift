import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail forward`'s refusals and its status, without an upstream (BugsinkForwardTests sends to a real one).
@Suite("crashtrail forward")
struct ForwardCommandTests {
    @Test("No upstream, a DSN without a key, --status with --to: each refused saying what to give; an unsent store's status says so")
    func refusalsAndStatus() throws {
        // Given a store of the samples
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = PackageRoot.url.appendingPathComponent("Samples")
        let ingested = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "--manifest",
                samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path, "--store", "s.sqlite", "--quiet",
            ], directory: folder.url)
        #expect(ingested.status == 0, "\(ingested.stderr)")

        // When
        let none = try runner.run(["forward", "--store", "s.sqlite"], directory: folder.url)
        let keyless = try runner.run(["forward", "--to", "https://sentry.example.com/42", "--store", "s.sqlite"], directory: folder.url)
        let both = try runner.run(
            ["forward", "--status", "--to", "https://k@sentry.example.com/42", "--store", "s.sqlite"], directory: folder.url)
        let status = try runner.run(["forward", "--status", "--store", "s.sqlite"], directory: folder.url)
        let json = try runner.run(["forward", "--status", "--store", "s.sqlite", "--format", "json"], directory: folder.url)
        let noStore = try runner.run(["forward", "--status", "--store", "missing.sqlite"], directory: folder.url)

        // Then
        #expect(none.status != 0 && none.stderr.contains("give the upstream with --to DSN"), "\(none.stderr)")
        #expect(
            keyless.status == 1 && keyless.stderr.contains("'https://sentry.example.com/42' has no key before the @"), "\(keyless.stderr)")
        #expect(both.status != 0 && both.stderr.contains("--status sends nothing"), "\(both.stderr)")
        #expect(status.status == 0 && status.stdout.contains("no upstream has reports in its outbox"), "\(status.stdout)")
        #expect(json.stdout == "[]\n")
        #expect(noStore.status == 1, "\(noStore.stderr)")
    }
}
