import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import GRDB
import Testing

/// `crashtrail reprocess` killed with SIGKILL at random moments resumes and ends as one uninterrupted run would.
@Suite("Reprocess killed mid-run", .serialized)
struct ReprocessKillTests {
    @Test("Killed until 10 kills hit a running job, then run to the end: every report derived again, none lost or doubled")
    func killedMidRun() throws {
        // Given a store of 600 files whose signatures an older version wrote
        let runner = try ReliabilityCLI.require()
        let folder = try TemporaryFolder("crashtrail-reprocess-kill")
        defer { folder.remove() }
        let inputs = folder.url.appendingPathComponent("in")
        _ = try PayloadCorpus.write(to: inputs, count: 600, seed: 0x2E9)
        let store = folder.url.appendingPathComponent("s.sqlite")
        let (ingest, _) = try ReliabilityCLI.ingest(
            [inputs.path], store: store, quarantine: folder.url.appendingPathComponent("q"), in: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let expected = try Self.rows(store)
        try DatabaseQueue(path: store.path).write { db in try db.execute(sql: "UPDATE report SET signature = 'old ' || signature") }
        // When reprocess is killed at random moments until ten kills land mid-run, then runs to the end
        var kills = KillLoop(window: 0.5, seed: 0x2E9)
        let enough = try kills.run(target: 10, maximumAttempts: 60) {
            try IngestProcess(runner: runner, arguments: ["reprocess", "--store", store.path, "--quiet"], directory: folder.url)
        }
        #expect(enough, "only \(kills.landed) of \(kills.attempts) kills hit a running job")
        let last = try IngestProcess(runner: runner, arguments: ["reprocess", "--store", store.path, "--quiet"], directory: folder.url)
        last.finish()
        // Then the store is what an uninterrupted run gives: every report once, with its derived fields
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.rows(store) == expected)
        let again = try IngestProcess(runner: runner, arguments: ["reprocess", "--store", store.path], directory: folder.url)
        again.finish()
        #expect(again.stdout.contains(": 0 changed."), "\(again.stdout)")
        #expect(try DatabaseQueue(path: store.path).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
    }

    /// Every report's ID, digest and signature, by ID.
    static func rows(_ store: URL) throws -> [[String]] {
        try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, sha256, signature, trailSource FROM report ORDER BY id").map { row in
                [row["id"], row["sha256"], row["signature"], row["trailSource"]]
            }
        }
    }
}
