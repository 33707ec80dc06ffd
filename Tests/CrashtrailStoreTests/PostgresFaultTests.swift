import CrashtrailCore
import CrashtrailIntake
import CrashtrailPostgres
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// What a PostgreSQL store does when the server is not as it should be: each refusal says what is wrong and what to
/// do, never prints the password, and leaves nothing half made.
@Suite("PostgreSQL faults")
struct PostgresFaultTests {
    @Test("Ten workers opening a new database at once migrate it once", .needsPostgres)
    func migratesOnce() throws {
        let url = try TestStores.newDatabase()
        let errors = LockedOutcomes()
        DispatchQueue.concurrentPerform(iterations: 10) { worker in
            do { _ = try TestStores.open(url) } catch { errors.fail("worker \(worker): \(error)") }
        }
        #expect(errors.failures.isEmpty, "\(errors.failures)")
        let store = try TestStores.open(url)
        let applied = try store.read { db in try db.strings("SELECT identifier FROM crashtrail_migrations ORDER BY identifier") }
        #expect(
            applied
                == [
                    "v1: reports, joined trails, manifests, reprocess cursor", "v2: trail dictionary", "v3: inferred trails",
                    "v4: exception backtrace",
                    "v5: report details, screen paths, listing indexes", "v6: projects, payloads compressed once",
                    "v7: group counts kept as reports arrive", "v8: trails compressed with lz4",
                    "v9: path counts kept as reports arrive", "v10: debug files", "v11: forwarding outbox",
                    "v12: session joins and waiting trails", "v13: uploaded files", "v14: grouping rules",
                    "v15: release health", "v16: tokens and limits", "v17: projects kept apart",
                    "v18: reads and upload chunks per project", "v19: waiting trails counted, joined trails by digest",
                    "v20: sessions seen",
                ].sorted())
    }

    @Test("Trails are compressed with lz4 where the server has it, and read back as stored", .needsPostgres)
    func trailsCompressedWithLZ4() throws {
        // Given a new store holding the samples
        let url = try TestStores.newDatabase()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try TestStores.open(url)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        // Then both trail columns use lz4 when the server was built with it, and the default method otherwise
        let methods = try store.read { db in
            try db.strings(
                """
                SELECT attcompression::text FROM pg_attribute
                WHERE attrelid IN ('report'::regclass, 'joinedtrail'::regclass) AND attname = 'trail'
                """)
        }
        let hasLZ4 = try store.read { db in
            try db.strings("SELECT ('lz4' = ANY(enumvals))::text FROM pg_settings WHERE name = 'default_toast_compression'")
        }
        #expect(methods == Array(repeating: hasLZ4 == ["true"] ? "l" : "", count: 2))
        // And every stored trail reads back as the canonical JSON it was stored as
        for record in try store.allRecords() {
            guard let trail = record.trail else { continue }
            #expect(try CanonicalJSON.string(of: JSONParser.parse(trail)) == trail, "\(record.id)")
        }
    }

    @Test("A store of the schema before the trail dictionary migrates with every row as it was", .needsPostgres)
    func migratesAnOlderSchema() throws {
        // Given a store holding the samples, taken back to the schema before "v2: trail dictionary"
        let url = try TestStores.newDatabase()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try TestStores.open(url)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let before = try store.allRecords()
        try #require(before.contains { $0.trailDictionary != nil })
        try store.write { db in
            try TestStores.dropKeptCounts(.postgres, in: db)
            try db.execute("DROP TABLE waitingTrail")
            try db.execute("DROP TABLE waitingTrailTotal")
            try db.execute("DROP FUNCTION crashtrail_waiting_total")
            try db.execute("DROP TABLE seenSession")
            try db.execute("DROP TABLE seenSessionTotal")
            try db.execute("DROP FUNCTION crashtrail_seen_session_total")
            try db.execute("ALTER TABLE joinedTrail DROP COLUMN digest")
            try db.execute("DROP TABLE reportSession")
            try db.execute("DROP TABLE forwardOutbox")
            try db.execute("DROP TABLE uploadChunk")
            try db.execute("DROP TABLE reportImage")
            try db.execute("DROP TABLE uploadedFile")
            try db.execute("DROP TABLE groupMerge")
            try db.execute("DROP TABLE groupingRules")
            try db.execute("DROP TABLE sessionCount")
            try db.execute("DROP TABLE pathVisit")
            try db.execute("DROP TABLE token")
            try db.execute("DROP TABLE debugFileChunk")
            try db.execute("DROP TABLE debugFile")
            try db.execute("DROP VIEW reportWithTrail")
            try db.execute("ALTER TABLE report DROP COLUMN trailDictionary")
            try db.execute("ALTER TABLE joinedTrail DROP COLUMN dictionary")
            try db.execute("ALTER TABLE report DROP COLUMN exceptionFrames")
            try db.execute("ALTER TABLE report DROP COLUMN details")
            try db.execute("ALTER TABLE report DROP COLUMN screenPath")
            try db.execute("ALTER TABLE report DROP COLUMN pathManifest")
            try db.execute("ALTER TABLE report DROP COLUMN project")
            try db.execute("ALTER TABLE joinedTrail DROP COLUMN screenPath")
            try db.execute("ALTER TABLE joinedTrail DROP COLUMN pathManifest")
            try db.execute("DROP INDEX report_recent")
            try db.execute("DROP INDEX report_group_recent")
            try db.execute("CREATE INDEX report_signature ON report(signature)")
            try db.execute("CREATE INDEX report_time ON report(time)")
            try db.execute("DROP TABLE project")
            try db.execute(
                """
                CREATE VIEW reportWithTrail AS
                    SELECT r.id, r.format, r.sha256, r.bundleID, r.appVersion, r.appBuild, r.osName, r.osVersion,
                        r.device, r.time, r.exceptionType, r.exceptionCode, r.exceptionSignal, r.exceptionReason,
                        r.frames, r.signature,
                        CASE WHEN j.id IS NULL THEN r.trailSource ELSE 'joined' END AS trailSource,
                        CASE WHEN j.id IS NULL THEN r.trailSteps ELSE j.steps END AS trailSteps,
                        CASE WHEN j.id IS NULL THEN r.trailError END AS trailError,
                        CASE WHEN j.id IS NULL THEN r.trail ELSE j.trail END AS trail,
                        r.pid, r.launchTime, r.source, r.payload, r.payloadSize
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id
                """)
            try db.execute(
                "DELETE FROM crashtrail_migrations WHERE identifier <> 'v1: reports, joined trails, manifests, reprocess cursor'")
        }

        // When this version opens it
        let upgraded = try TestStores.open(url)

        // Then every row reads as it was, with no dictionary ID, exception backtrace or details until reprocess
        // derives them again
        let expected = before.map { record in
            var record = record
            record.trailDictionary = nil
            record.exceptionFrames = "[]"
            record.details = "{}"
            record.screenPath = nil
            record.pathManifest = nil
            return record
        }
        #expect(try upgraded.allRecords() == expected)
        let reprocessed = try upgraded.reprocess(with: PayloadDeriver(decoder: try TestStores.codec()))
        #expect(reprocessed.changed > 0)
        #expect(try upgraded.allRecords().filter { $0.trailSource == .embedded } == before.filter { $0.trailSource == .embedded })
        #expect(try upgraded.allRecords().map(\.details) == before.map(\.details))
    }

    @Test("A schema from a newer crashtrail is refused, and left as it is", .needsPostgres)
    func newerSchema() throws {
        let url = try TestStores.newDatabase()
        let store = try TestStores.open(url)
        try store.write { db in try db.execute("INSERT INTO crashtrail_migrations (identifier) VALUES ('v99: from the future')") }
        let error = #expect(throws: StoreError.self) { try TestStores.open(url) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("newer crashtrail") == true)
        #expect(error?.message.contains("v99: from the future") == true)
        // The twenty migrations this version knows and the newer one, left as they were.
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM crashtrail_migrations")?.integer } == 21)
    }

    @Test("A wrong password is refused with the user and where to put the right one, and is never printed", .needsPostgres)
    func wrongPassword() throws {
        let server = try TestStores.serverURL()
        let home = try TemporaryFolder("pg-home")
        defer { home.remove() }
        let secret = "not-the-password-\(UUID().uuidString.prefix(6))"
        let location = try PostgresLocation(server, environment: ["PGPASSWORD": secret, "HOME": home.url.path])
        let error = #expect(throws: StoreError.self) { try PostgresBackend(location, options: .init(retryWindow: 0)) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("refused the sign-in of \(location.user)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("PGPASSWORD") == true)
        #expect(error?.message.contains(secret) == false)
        #expect(location.description.contains(secret) == false)
    }

    @Test("No password at all says where to give one", .needsPostgres)
    func missingPassword() throws {
        let server = try TestStores.serverURL()
        let home = try TemporaryFolder("pg-home")
        defer { home.remove() }
        let location = try PostgresLocation(server, environment: ["HOME": home.url.path])
        #expect(!location.hasPassword)
        let error = #expect(throws: StoreError.self) { try PostgresBackend(location, options: .init(retryWindow: 0)) }
        #expect(error?.message.contains("~/.pgpass") == true, "\(error?.message ?? "")")
    }

    @Test(
        "The password file is read as psql reads it, and not when others can read it", .needsPostgres,
        .enabled(
            if: ProcessInfo.processInfo.environment["PGPASSWORD"] != nil || ConformanceSuite.isRequired,
            "PGPASSWORD is not set: the test writes the server's password to a password file"))
    func passwordFile() throws {
        let server = try TestStores.serverURL()
        let password = try #require(ProcessInfo.processInfo.environment["PGPASSWORD"], "PGPASSWORD is not set")
        let home = try TemporaryFolder("pg-home")
        defer { home.remove() }
        let location = try PostgresLocation(server)
        let file = try home.write(
            "# comment\nother.host:5432:*:*:wrong\n\(location.host):\(location.port):*:\(location.user):\(password.replacingOccurrences(of: ":", with: "\\:"))\n",
            to: ".pgpass")
        chmod(file.path, 0o600)
        let fromFile = try PostgresLocation(server, environment: ["HOME": home.url.path])
        _ = try PostgresBackend(fromFile)
        chmod(file.path, 0o644)
        #expect(!(try PostgresLocation(server, environment: ["HOME": home.url.path]).hasPassword))
    }

    @Test("A refused connection and a missing database are refused at once, with what to check", .needsPostgres)
    func unreachable() throws {
        let server = try TestStores.serverURL()
        let location = try PostgresLocation(server)
        // A port nothing listens on: bind one, note it, close it.
        let port = try Self.closedPort()
        let refused = #expect(throws: StoreError.self) {
            try PostgresBackend(
                try PostgresLocation("postgres://\(location.user)@127.0.0.1:\(port)/crashtrail"), options: .init(retryWindow: 0))
        }
        #expect(
            refused?.message.contains("could not connect to the PostgreSQL store postgres://\(location.user)@127.0.0.1:\(port)/crashtrail")
                == true,
            "\(refused?.message ?? "")")
        #expect(refused?.message.contains("check that the server is running") == true)
        let missing = #expect(throws: StoreError.self) {
            try PostgresBackend(try PostgresLocation("postgres://\(location.user)@\(location.host):\(location.port)/no_such_database"))
        }
        #expect(
            missing?.message.contains("does not exist") == true && missing?.message.contains("createdb") == true,
            "\(missing?.message ?? "")")
    }

    @Test(
        "A URL that does not read says how to write one",
        arguments: [
            "postgres://", "postgres://u@h:5432/a/b", "postgres://u@h/db?sslmode=sometimes", "postgres://u@h/db?pool=0",
            "postgres://u@h/db?color=red",
        ])
    func badURL(url: String) throws {
        let error = #expect(throws: StoreError.self) { try PostgresLocation(url, environment: [:]) }
        #expect(error?.message.contains("postgres://USER@HOST:PORT/DATABASE") == true)
    }

    @Test("A password in the URL is never shown")
    func passwordInURL() throws {
        let location = try PostgresLocation("postgres://me:s3cret@db.example:6543/crashes?sslmode=disable&pool=2", environment: [:])
        #expect(location.description == "postgres://me@db.example:6543/crashes")
        #expect(location.sslMode == .disable && location.poolSize == 2 && location.hasPassword)
        let error = #expect(throws: StoreError.self) { try PostgresLocation("postgres://me:s3cret@db.example/x?pool=99", environment: [:]) }
        #expect(error?.message.contains("s3cret") == false)
    }

    /// A loopback port that nothing listens on.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(bind(socket, raw, length) == 0)
                try #require(getsockname(socket, raw, &length) == 0)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
