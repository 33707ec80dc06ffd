import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail ingest` killed with SIGKILL at random moments, and raced by other jobs on the same store.
///
/// Afterwards every accepted report is stored exactly once, the quarantine folder agrees, and SQLite finds
/// the file sound. The same tests at a larger scale: `Tools/reliability-scale.sh`.
@Suite("Ingest crash safety and concurrency", .serialized)
struct IngestCrashSafetyTests {
    /// `RELIABILITY_SCALE` multiplies the corpora for the large-scale run.
    static let scale = Int(ProcessInfo.processInfo.environment["RELIABILITY_SCALE"] ?? "") ?? 1
    /// Files in the kill test's corpus: 600, so a run is three 256-input write transactions and kills land
    /// between and inside them.
    static let killFiles = 600 * scale
    /// Files in the concurrency tests' corpora.
    static let concurrentFiles = 200 * scale
    static let kills = Int(ProcessInfo.processInfo.environment["RELIABILITY_KILLS"] ?? "") ?? 20

    /// A corpus and the store an uninterrupted, single run makes of it: what every other run must equal.
    struct Reference {
        let folder: TemporaryFolder
        let corpus: PayloadCorpus
        let snapshot: StoreSnapshot
        let seconds: Double

        var inputs: URL { folder.url.appendingPathComponent("in") }

        init(seed: UInt64, files: Int) throws {
            let folder = try TemporaryFolder("crashtrail-reliability")
            let inputs = folder.url.appendingPathComponent("in")
            let corpus = try PayloadCorpus.write(to: inputs, count: files, seed: seed)
            let store = folder.url.appendingPathComponent("reference.sqlite")
            let quarantine = folder.url.appendingPathComponent("reference-q")
            let started = Date()
            let (result, summary) = try ReliabilityCLI.ingest([inputs.path], store: store, quarantine: quarantine, in: folder.url)
            let seconds = Date().timeIntervalSince(started)
            try #require(result.status == 0, "\(ReliabilityCLI.describe(result))")
            let snapshot = try StoreSnapshot.read(store: store, quarantine: quarantine)
            // The reference itself is right: every distinct payload stored once, every broken input refused.
            #expect(snapshot.reports.count == corpus.distinctPayloads, "\(result.stdout)")
            #expect(ReliabilityCLI.count(summary, "rejected") == corpus.refused, "\(result.stdout)")
            #expect(snapshot.quarantinedInputs.count == corpus.refused)
            #expect(snapshot.integrity == ["ok"])
            self.folder = folder
            self.corpus = corpus
            self.snapshot = snapshot
            self.seconds = seconds
        }

        /// Checks a store made some other way against the reference; messages name counts and a few examples.
        func expectSame(as other: StoreSnapshot, _ what: String) {
            #expect(other.integrity == ["ok"], "\(what): integrity_check says \(other.integrity.prefix(5))")
            #expect(other.duplicatedHashes.isEmpty, "\(what): \(other.duplicatedHashes.count) payloads stored more than once")
            // Compared outside #expect, which would print both sets whole.
            let lostPayloads = Set(snapshot.copiesByHash.keys).subtracting(other.copiesByHash.keys).count
            let unexpectedPayloads = Set(other.copiesByHash.keys).subtracting(snapshot.copiesByHash.keys).count
            #expect(lostPayloads == 0, "\(what): \(lostPayloads) payloads lost")
            #expect(unexpectedPayloads == 0, "\(what): \(unexpectedPayloads) payloads that the reference does not have")
            #expect(
                other.reports.count == snapshot.reports.count, "\(what): \(other.reports.count) reports, expected \(snapshot.reports.count)"
            )
            let lost = snapshot.quarantinedInputs.subtracting(other.quarantinedInputs)
            let extra = other.quarantinedInputs.subtracting(snapshot.quarantinedInputs)
            let quarantineAgrees = lost.isEmpty && extra.isEmpty
            #expect(
                quarantineAgrees,
                "\(what): quarantine lacks \(lost.count) (\(lost.sorted().prefix(3))) and has \(extra.count) extra (\(extra.sorted().prefix(3)))"
            )
            let changed = snapshot.quarantine.keys.filter { other.quarantine[$0] != nil && other.quarantine[$0] != snapshot.quarantine[$0] }
            let changedCount = changed.count
            #expect(changedCount == 0, "\(what): \(changedCount) quarantined copies differ: \(changed.sorted().prefix(3))")
            // Temporaries a kill left (other.leftovers) are checked by QuarantineLeftoverTests (finding F7).
        }
    }

    @Test("Killed with SIGKILL at 20 random moments, then run to the end: nothing lost, nothing twice")
    func killedMidIngest() throws {
        let runner = try ReliabilityCLI.require()
        let reference = try Reference(seed: 0xC0FFEE, files: Self.killFiles)
        defer { reference.folder.remove() }
        let store = reference.folder.url.appendingPathComponent("killed.sqlite")
        let quarantine = reference.folder.url.appendingPathComponent("killed-q")
        // Kills at random moments until enough landed on a running job; the delays adapt to how long runs take here
        // (later runs are shorter: what earlier runs stored is skipped).
        var kills = KillLoop(window: max(reference.seconds, 0.05), seed: 0x5EED)
        let enough = try kills.run(target: Self.kills, maximumAttempts: Self.kills * 4) {
            try IngestProcess(
                runner: runner, inputs: [reference.inputs.path], store: store, quarantine: quarantine, directory: reference.folder.url)
        }
        #expect(enough, "only \(kills.landed) of \(kills.attempts) kills hit a running job")
        let killedRunning = kills.landed
        let last = try IngestProcess(
            runner: runner, inputs: [reference.inputs.path], store: store, quarantine: quarantine, directory: reference.folder.url)
        last.finish()
        #expect(last.status == 0, "\(last.stderr)")
        let snapshot = try StoreSnapshot.read(store: store, quarantine: quarantine)
        reference.expectSame(as: snapshot, "after \(Self.kills) kills")
        print(
            "scale: kill test: \(reference.corpus.files) files (\(reference.corpus.distinctPayloads) payloads, \(reference.corpus.refused) refused), full run \(String(format: "%.2f", reference.seconds)) s, \(killedRunning) SIGKILLs landed mid-run in \(kills.attempts) attempts, then \(snapshot.reports.count) reports, integrity \(snapshot.integrity), \(snapshot.duplicatedHashes.count) stored twice"
        )
        // And one more run adds nothing: ingest is idempotent after crashes too.
        let (again, summary) = try ReliabilityCLI.ingest(
            [reference.inputs.path], store: store, quarantine: quarantine, in: reference.folder.url)
        #expect(again.status == 0)
        #expect(ReliabilityCLI.count(summary, "stored") == 0, "\(again.stdout)")
    }

    @Test("Two and four ingest jobs on one store with overlapping inputs: no duplicate, no loss, never 'locked'", arguments: [2, 4])
    func concurrentJobs(_ jobs: Int) throws {
        let runner = try ReliabilityCLI.require()
        let reference = try Reference(seed: 0xBEEF + UInt64(jobs), files: Self.concurrentFiles)
        defer { reference.folder.remove() }
        let store = reference.folder.url.appendingPathComponent("shared.sqlite")
        let quarantine = reference.folder.url.appendingPathComponent("shared-q")
        let folders = reference.corpus.folders.map(\.path)
        // Job k reads folders k and k+1 (mod 3): every folder is read by at least two jobs.
        let processes = try (0..<jobs).map { job in
            try IngestProcess(
                runner: runner, inputs: [folders[job % 3], folders[(job + 1) % 3]], store: store, quarantine: quarantine,
                extra: ["--jobs", "1"], directory: reference.folder.url)
        }
        var storedByJobs = 0
        for (index, process) in processes.enumerated() {
            process.finish()
            #expect(process.status == 0, "job \(index): \(process.stderr.prefix(500))")
            #expect(!process.stderr.lowercased().contains("locked"), "job \(index): \(process.stderr)")
            #expect(!process.stderr.lowercased().contains("busy"), "job \(index): \(process.stderr)")
            storedByJobs += ReliabilityCLI.count(((try? JSONParser.parse(process.stdout))?.objectValue) ?? [:], "stored")
        }
        // Each report was stored by exactly one job; the others saw a duplicate.
        #expect(storedByJobs == reference.snapshot.reports.count, "jobs stored \(storedByJobs) in total")
        let snapshot = try StoreSnapshot.read(store: store, quarantine: quarantine)
        reference.expectSame(as: snapshot, "\(jobs) concurrent jobs")
        print(
            "scale: \(jobs) concurrent jobs over \(reference.corpus.files) files: stored \(storedByJobs) in total, \(snapshot.reports.count) reports (reference \(reference.snapshot.reports.count)), integrity \(snapshot.integrity), \(snapshot.duplicatedHashes.count) stored twice"
        )
    }
}
