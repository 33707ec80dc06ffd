import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailPostgres

/// The two backends every store test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// The stores the tests open: an SQLite file in a temporary folder, or a new database on the test PostgreSQL server
/// (`CRASHTRAIL_TEST_POSTGRES`, which `Tools/with-postgres.sh` starts).
enum TestStores {
    /// The test server's URL from `CRASHTRAIL_TEST_POSTGRES`, or nil when the tests were not given one.
    static var configuredServer: String? {
        ProcessInfo.processInfo.environment["CRASHTRAIL_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static let noServer: Comment =
        "no PostgreSQL server for the tests: run them as Tools/with-postgres.sh swift test (it starts a throwaway one), or set CRASHTRAIL_TEST_POSTGRES to a server's URL"

    /// The test server's URL; a test that calls this carries ``Testing/Trait/needsPostgres``, so without a server it
    /// is skipped, except in CI (`CI` set), where it runs and fails here.
    static func serverURL() throws -> String {
        try #require(configuredServer, noServer)
    }

    /// The URL of a new, empty database on the test server (see ``serverURL()``).
    static func newDatabase() throws -> String {
        let location = try PostgresLocation(try serverURL())
        let name = "crashtrail_test_" + UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
        let createdb = try #require(tool("createdb"), "createdb was not found; install postgresql-client")
        let result = try CommandRunner(executable: createdb).run([
            "-h", location.host, "-p", String(location.port), "-U", location.user, name,
        ])
        try #require(result.status == 0, "createdb \(name) failed: \(result.stderr)")
        return "postgres://\(location.user)@\(location.host):\(location.port)/\(name)"
    }

    /// The URL of a new database on the test server whose schema is a previous release's: the migrations up to and
    /// including `last`, as that release applied them, then `statements`, all run by `psql`.
    static func previousReleaseDatabase(upTo last: String, then statements: [String] = []) throws -> String {
        let url = try newDatabase()
        let location = try PostgresLocation(url)
        let migrations = PostgresMigrations.all.prefix { $0.identifier != last } + PostgresMigrations.all.filter { $0.identifier == last }
        try #require(migrations.last?.identifier == last, "no PostgreSQL migration is named \(last)")
        var script =
            "CREATE TABLE \(PostgresMigrations.table) (identifier TEXT PRIMARY KEY NOT NULL, applied TIMESTAMPTZ NOT NULL DEFAULT now());\n"
        for migration in migrations {
            script += migration.statements.map { $0 + ";\n" }.joined()
            script += "INSERT INTO \(PostgresMigrations.table) (identifier) VALUES ('\(migration.identifier)');\n"
        }
        script += statements.map { $0 + ";\n" }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-schema-\(UUID().uuidString).sql")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let psql = try #require(tool("psql"), "psql was not found; install postgresql-client")
        let result = try CommandRunner(executable: psql).run([
            "-h", location.host, "-p", String(location.port), "-U", location.user, "-d", location.database, "-v", "ON_ERROR_STOP=1",
            "-q", "-f", file.path,
        ])
        try #require(result.status == 0, "psql could not make the schema of \(last): \(result.stderr)")
        return url
    }

    /// A PostgreSQL client program: on the PATH's usual place, else in the newest server's folder.
    static func tool(_ name: String) -> URL? {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted {
            $0.compare($1, options: .numeric) == .orderedDescending
        }
        let candidates = ["/usr/bin/\(name)"] + versions.map { "/usr/lib/postgresql/\($0)/bin/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// A new, empty store of `kind`; the folder holds an SQLite store's file.
    static func make(_ kind: StoreKind, in folder: TemporaryFolder) throws -> (store: ReportStore, name: String) {
        switch kind {
        case .sqlite:
            let path = folder.url.appendingPathComponent("store-\(UUID().uuidString.prefix(8)).sqlite").path
            return (try ReportStore.open(path: path), path)
        case .postgres:
            let url = try newDatabase()
            return (try open(url), url)
        }
    }

    /// Opens a store by name, as the command line does.
    static func open(
        _ name: String, options: PostgresBackend.Options = .init(), willMigrate: (@Sendable ([String]) -> Void)? = nil
    ) throws -> ReportStore {
        PostgresLocation.isPostgresURL(name)
            ? ReportStore(backend: try PostgresBackend(try PostgresLocation(name), options: options, willMigrate: willMigrate))
            : try ReportStore.open(path: name, willMigrate: willMigrate)
    }

    /// Takes a store back to before its counts were kept: the group and path count tables, their triggers (and
    /// trigger functions on PostgreSQL) and the records of their migrations are dropped.
    static func dropKeptCounts(_ kind: StoreKind, in db: any StoreTransaction) throws {
        let events = ["report_insert", "report_delete", "report_update", "joined_insert", "joined_delete", "joined_update"]
        for table in ["groupCount", "groupVersionCount", "groupDayCount", "groupPathCount"] { try db.execute("DROP TABLE \(table)") }
        switch kind {
        case .sqlite:
            for event in events {
                let parts = event.split(separator: "_")
                try db.execute("DROP TRIGGER \(parts[0])_counted_\(parts[1])")
                try db.execute("DROP TRIGGER \(parts[0])_paths_\(parts[1])")
            }
            try db.execute(
                """
                DELETE FROM grdb_migrations WHERE identifier IN
                    ('v11: group counts kept as reports arrive', 'v12: path counts kept as reports arrive')
                """)
        case .postgres:
            for event in events {
                try db.execute("DROP FUNCTION crashtrail_count_\(event)() CASCADE")
                try db.execute("DROP FUNCTION crashtrail_path_\(event)() CASCADE")
            }
            try db.execute("DROP FUNCTION crashtrail_compact_counts(), crashtrail_compact_path_counts()")
            try db.execute(
                """
                DELETE FROM crashtrail_migrations WHERE identifier IN
                    ('v7: group counts kept as reports arrive', 'v9: path counts kept as reports arrive')
                """)
        }
    }

    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let manifestURL = samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml")

    static func codec() throws -> TrailCodec {
        TrailCodec(manifests: [try Manifest(contentsOf: manifestURL)])
    }

    /// Ingests the samples (reports, then the trail files) into `store`, keeping the manifest.
    @discardableResult
    static func ingestSamples(into store: ReportStore, folder: TemporaryFolder) throws -> IngestSummary {
        let manifest = try Manifest(contentsOf: manifestURL)
        try store.addManifest(manifest, text: try String(contentsOf: manifestURL, encoding: .utf8))
        let options = IngestOptions(
            inputs: [samples.appendingPathComponent("reports").path], trailsDirectory: samples.appendingPathComponent("trails").path,
            quarantineDirectory: folder.url.appendingPathComponent("quarantine-\(UUID().uuidString.prefix(8))").path, jobs: 2, batchSize: 3)
        return try IngestPipeline(store: store, decoder: try codec(), options: options).run()
    }

    /// `count` distinct copies of `record`, with IDs and digests of their own and times a minute apart.
    static func copies(of record: ReportRecord, count: Int) -> [ReportRecord] {
        (0..<count).map { index in
            var copy = record
            copy.id = String(format: "R%05d", index)
            copy.sha256 = String(format: "%064x", index + 1)
            copy.time = Timestamp.rfc3339(milliseconds: 1_790_000_000_000 + Int64(index) * 60_000)
            copy.trailSource = .missing
            copy.trail = nil
            copy.trailSteps = nil
            return copy
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside a PostgreSQL server: skipped without one on a developer's machine, required in CI
    /// (`CI` set), where no server would let the PostgreSQL half pass without running.
    static var needsPostgres: Self {
        .enabled(if: TestStores.configuredServer != nil || ConformanceSuite.isRequired, TestStores.noServer)
    }
}
