import CrashtrailTestSupport
import Foundation
import Testing

/// Regression test for /tmp/reliability-findings.md F2: the store's own files taken as inputs.
@Suite("The store is never its own input")
struct StoreFilesAsInputTests {
    @Test("crashtrail ingest . next to its own store does not ingest or quarantine the store's files")
    func storeInsideInputFolder() throws {
        // Given: the default layout, store and inputs in the working directory
        let folder = try TemporaryFolder("crashtrail-self")
        defer { folder.remove() }
        try folder.write(#"{"crashtrail":1,"id":"one","time":"2026-11-02T14:50:00Z"}"#, to: "one.json")
        let runner = try ReliabilityCLI.require()
        // When: ingesting "." twice (the second run sees the store, its -wal and -shm files)
        _ = try runner.run(["ingest", ".", "--json", "--quiet"], directory: folder.url)
        let second = try runner.run(["ingest", ".", "--json", "--quiet"], directory: folder.url)
        // Then
        #expect(second.status == 0, "\(ReliabilityCLI.describe(second))")
        let quarantined =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("crashtrail-quarantine").path)) ?? []
        #expect(quarantined.isEmpty, "the store's own files were quarantined: \(quarantined)")
        #expect(second.stdout.contains(#""inputs":1,"#), "\(second.stdout)")
    }
}
