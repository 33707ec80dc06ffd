import CrashtrailTestSupport
import Foundation
import Testing

/// Regression test: a kill while quarantining used to leave atomic-write temporaries in the quarantine folder.
@Suite("No temporaries left in quarantine after a kill")
struct QuarantineLeftoverTests {
    @Test("Killed while quarantining, then run to the end: no atomic-write temporaries are left behind")
    func killedWhileQuarantining() throws {
        // Given: 300 refused inputs of 64 KiB each, so a run spends its time writing quarantine copies
        let folder = try TemporaryFolder("crashtrail-leftovers")
        defer { folder.remove() }
        let inputs = folder.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for index in 0..<300 {
            try Data(repeating: UInt8(ascii: "a") &+ UInt8(index % 26), count: 64 << 10)
                .write(to: inputs.appendingPathComponent("refused-\(index).txt"))
        }
        let store = folder.url.appendingPathComponent("s.sqlite")
        let quarantine = folder.url.appendingPathComponent("q")
        let runner = try ReliabilityCLI.require()
        // When: runs killed at random moments until ten kills landed on a running job, then one that finishes
        var kills = KillLoop(window: 0.3, seed: 7)
        let enough = try kills.run(target: 10, maximumAttempts: 60) {
            try IngestProcess(runner: runner, inputs: [inputs.path], store: store, quarantine: quarantine, directory: folder.url)
        }
        #expect(enough, "only \(kills.landed) of \(kills.attempts) kills hit a running job")
        let last = try IngestProcess(runner: runner, inputs: [inputs.path], store: store, quarantine: quarantine, directory: folder.url)
        last.finish()
        // Then
        #expect(last.status == 0, "\(last.stderr)")
        let snapshot = try StoreSnapshot.read(store: store, quarantine: quarantine)
        #expect(snapshot.quarantinedInputs.count == 300)
        #expect(snapshot.leftovers.isEmpty, "temporaries left in the quarantine folder: \(snapshot.leftovers)")
    }
}
