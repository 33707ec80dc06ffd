import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Many `crashtrail ingest` processes on one PostgreSQL store, as a team runs them on several machines: each report is
/// stored once whoever stores it, a worker killed at any moment loses nothing a re-run does not store, and a server
/// restarted mid-ingest is waited out.
@Suite("Ingest workers sharing a PostgreSQL store", .serialized, .needsPostgres)
struct SharedStoreWorkerTests {
    static let manifest = "Samples/PirateBay/Sources/PirateBay/piratebay.yml"

    /// A generated corpus (every format, trails embedded and in files) and what one job stores from it into SQLite.
    struct Corpus {
        let folder: TemporaryFolder
        let reference: StoreDigest

        var reports: String { folder.url.appendingPathComponent("corpus/reports").path }
        var trails: String { folder.url.appendingPathComponent("corpus/trails").path }

        init(count: Int, seed: UInt64) throws {
            folder = try TemporaryFolder("shared-store")
            let generator = try #require(CommandRunner.locate(named: "crashtrail-corpus"), "crashtrail-corpus was not built")
            let made = try generator.run(
                [
                    "corpus", folder.url.appendingPathComponent("corpus").path, "--count", String(count), "--seed", String(seed),
                    "--manifest", Self.manifestPath,
                ],
                directory: PackageRoot.url)
            try #require(made.status == 0, "\(made.stderr)")
            let store = folder.url.appendingPathComponent("reference.sqlite").path
            let result = try SharedStoreWorkerTests.runner().run(
                SharedStoreWorkerTests.arguments(
                    reports: folder.url.appendingPathComponent("corpus/reports").path,
                    trails: folder.url.appendingPathComponent("corpus/trails").path, store: store, quarantine: "q-reference"),
                directory: folder.url)
            try #require(result.status == 0, "\(result.stderr)")
            reference = try ReportStore.open(path: store).digest()
        }

        static var manifestPath: String { PackageRoot.url.appendingPathComponent(SharedStoreWorkerTests.manifest).path }
    }

    static func runner() throws -> CommandRunner {
        try #require(CommandRunner.locate(), "the crashtrail executable was not built")
    }

    static func arguments(reports: String, trails: String, store: String, quarantine: String) -> [String] {
        [
            "ingest", reports, "--trails", trails, "--manifest", Corpus.manifestPath, "--store", store, "--quarantine", quarantine,
            "--jobs", "1", "--json", "--quiet",
        ]
    }

    @Test("Four workers over the same inputs, one killed with SIGKILL and run again, store every report exactly once")
    func fourWorkersOneKilled() throws {
        let url = try TestStores.newDatabase()
        let corpus = try Corpus(count: 1_200, seed: 7)
        defer { corpus.folder.remove() }
        #expect(corpus.reference.reports > 1_000)
        let runner = try Self.runner()
        var random = SplitMix64(seed: 11)
        var killedOne = false
        for attempt in 1...5 where !killedOne {
            let workers = try (0..<4).map { index in
                try IngestProcess(
                    runner: runner,
                    arguments: Self.arguments(
                        reports: corpus.reports, trails: corpus.trails, store: url, quarantine: "q-\(attempt)-\(index)"),
                    directory: corpus.folder.url)
            }
            // The first worker is killed at a random moment of its run.
            Thread.sleep(forTimeInterval: 0.3 + Double(random.next() % 1_500) / 1_000)
            killedOne = workers[0].kill()
            for worker in workers.dropFirst() {
                worker.finish()
                #expect(worker.status == 0, "a worker failed: \(worker.stderr.prefix(800))")
            }
            // The killed worker's job, run again, stores what it had not.
            let again = try runner.run(
                Self.arguments(reports: corpus.reports, trails: corpus.trails, store: url, quarantine: "q-\(attempt)-again"),
                directory: corpus.folder.url)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try TestStores.open(url).digest() == corpus.reference, "the shared store holds exactly what one job stores")
        }
        #expect(killedOne, "no kill landed on a running worker in 5 attempts")
    }

    @Test(
        "A server restarted mid-ingest is waited out, and a re-run then stores nothing twice",
        .enabled(
            if: ProcessInfo.processInfo.environment["CRASHTRAIL_TEST_PGCTL"] != nil || ConformanceSuite.isRequired,
            "CRASHTRAIL_TEST_PGCTL is not set: run the tests with Tools/with-postgres.sh, which can restart its server"))
    func serverRestart() throws {
        let url = try TestStores.newDatabase()
        let pgctl = try #require(
            ProcessInfo.processInfo.environment["CRASHTRAIL_TEST_PGCTL"],
            "CRASHTRAIL_TEST_PGCTL is not set: run the tests with Tools/with-postgres.sh")
        let corpus = try Corpus(count: 1_500, seed: 8)
        defer { corpus.folder.remove() }
        let runner = try Self.runner()
        let job = try IngestProcess(
            runner: runner, arguments: Self.arguments(reports: corpus.reports, trails: corpus.trails, store: url, quarantine: "q-job"),
            directory: corpus.folder.url)
        // When the job has stored its first batches, the server restarts (fast shutdown: connections are cut).
        let store = try TestStores.open(url)
        var stored = 0
        for _ in 0..<600 where stored == 0 && job.process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
            stored = Int(try store.read { db in try db.value("SELECT COUNT(*) FROM report")?.integer } ?? 0)
        }
        // The restarted server keeps the descriptors it was started with, so pg_ctl's output goes to no pipe.
        let restart = Process()
        restart.executableURL = URL(fileURLWithPath: pgctl)
        restart.arguments = ["restart", "-m", "fast", "-w"]
        restart.standardInput = FileHandle.nullDevice
        restart.standardOutput = FileHandle.nullDevice
        restart.standardError = FileHandle.nullDevice
        try restart.run()
        restart.waitUntilExit()
        try #require(restart.terminationStatus == 0, "pg_ctl restart failed")
        job.finish()
        #expect(stored > 0 && stored < corpus.reference.reports, "the restart came mid-ingest (\(stored) stored before it)")
        #expect(job.status == 0, "the job did not wait out the restart: \(job.stderr.prefix(800))")
        // A re-run completes the store exactly once.
        let again = try runner.run(
            Self.arguments(reports: corpus.reports, trails: corpus.trails, store: url, quarantine: "q-again"), directory: corpus.folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\"stored\":0"), "the first job had stored everything: \(again.stdout)")
        #expect(try TestStores.open(url).digest() == corpus.reference)
    }
}
