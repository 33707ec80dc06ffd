import CrashtrailTestSupport
import Foundation
import Testing

/// The journal recorder ended by SIGKILL, SIGSEGV or SIGABRT at random moments keeps every step printed as durable.
///
/// `crashtrail journal record` is killed at random moments: every recovery keeps every step printed as durable, never
/// a step that was not recorded, and replays to its final (SPEC section 10).
/// `crashtrail-journal-faults 1000` runs the same check at scale (docs/RELIABILITY.md).
@Suite("Journal under kills and crashes")
struct JournalFaultTests {
    @Test("40 recordings ended by a signal at random moments keep the journal's promise")
    func killedAndCrashed() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("journal-faults")
        defer { folder.remove() }
        let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
        let faults = try JournalFaultRun(executable: runner.executable, manifestPath: manifest, limits: (steps: 200, bytes: 16 * 1024))
        var failures: [String] = []
        let report = try faults.runMany(40, seed: 0x5EED_10C4, in: folder.url) { index, outcome in
            if !outcome.failures.isEmpty { failures.append("run \(index): \(outcome): \(outcome.failures.joined(separator: "; "))") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(report.runs == 40)
        // Signals must land mid-recording for the test to test anything.
        let landed = report.bySignal.values.reduce(0, +)
        #expect(landed >= 12, "\(report)")
        #expect(report.bySignal.count == 3, "every signal should end some run: \(report)")
    }
}
