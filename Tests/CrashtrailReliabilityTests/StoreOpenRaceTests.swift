import CrashtrailTestSupport
import Foundation
import Testing

/// Jobs that open a new store at the same moment (regression test for finding F8).
///
/// The race is narrow (about 1 process in 80 failed), so it starts 8 jobs at once, 20 times over.
@Suite("Jobs opening a new store together")
struct StoreOpenRaceTests {
    @Test("Eight ingest jobs started together on a store that does not exist yet all succeed, 20 times")
    func simultaneousOpen() throws {
        let runner = try ReliabilityCLI.require()
        let folder = try TemporaryFolder("crashtrail-open-race")
        defer { folder.remove() }
        try folder.write(#"{"crashtrail":1,"id":"one","time":"2026-11-02T14:50:00Z"}"#, to: "in/one.json")
        let inputs = folder.url.appendingPathComponent("in").path
        var failures: [String] = []
        for round in 0..<20 {
            let store = folder.url.appendingPathComponent("race-\(round).sqlite")
            let jobs = try (0..<8).map { _ in
                try IngestProcess(
                    runner: runner, inputs: [inputs], store: store, quarantine: folder.url.appendingPathComponent("q"),
                    directory: folder.url)
            }
            for job in jobs {
                job.finish()
                if job.status != 0 { failures.append("round \(round): \(job.stderr.prefix(200))") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 160 jobs failed: \(failures.prefix(3))")
    }
}
