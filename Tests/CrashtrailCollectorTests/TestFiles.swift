import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import GRDB
import Testing

/// Where the shared fixtures and the package's samples are, and temporary folders for a test.
enum TestFiles {
    /// `$CRASHTRAIL_FIXTURES`, else `../shared/fixtures` beside the package; nil when absent.
    static var fixtures: URL? {
        let environment = ProcessInfo.processInfo.environment["CRASHTRAIL_FIXTURES"]
        let url =
            environment.map { URL(fileURLWithPath: $0) }
            ?? PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static let noFixtures: Comment =
        "the shared fixtures were not found: set CRASHTRAIL_FIXTURES or check out shared/ beside the package"

    /// The fixtures; a test that calls this carries ``Testing/Trait/needsFixtures``, so without them it is skipped,
    /// except in CI (`CI` set), where it runs and fails here rather than pass without running.
    static func requiredFixtures() throws -> URL {
        try #require(fixtures, noFixtures)
    }

    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let manifestURL = samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml")

    static func manifest() throws -> Manifest {
        try Manifest(contentsOf: manifestURL)
    }

    static func codec() throws -> TrailCodec {
        TrailCodec(manifests: [try manifest()])
    }

    /// A fresh temporary folder, removed by the caller with `remove`.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Runs an ingest into `store` with the quarantine inside `folder`.
    static func ingest(
        _ inputs: [String], store: ReportStore, folder: URL, trails: String? = nil, jobs: Int = 2
    ) throws -> IngestSummary {
        let options = IngestOptions(
            inputs: inputs, trailsDirectory: trails, quarantineDirectory: folder.appendingPathComponent("quarantine").path,
            jobs: jobs, batchSize: 3)
        return try IngestPipeline(store: store, decoder: try codec(), options: options).run()
    }

    static func memoryStore() throws -> ReportStore {
        try ReportStore(DatabaseQueue())
    }
}

extension ReportStore {
    /// The GRDB database of a store the tests opened on SQLite.
    var sqliteWriter: any DatabaseWriter {
        get throws { try #require(backend as? SQLiteBackend).writer }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the shared fixtures are there: skipped without them on a developer's machine,
    /// required in CI (`CI` set).
    static var needsFixtures: Self {
        .enabled(if: TestFiles.fixtures != nil || ConformanceSuite.isRequired, TestFiles.noFixtures)
    }
}
