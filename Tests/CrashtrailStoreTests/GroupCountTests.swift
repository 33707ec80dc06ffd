import CrashtrailCore
import CrashtrailEncoding
import CrashtrailPostgres
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// The group counts kept as reports arrive (`list`, `show GROUP`), and the path counts kept for `paths`, always equal
/// the counts of the reports themselves, on both backends: after ingest, seeded random inserts, joins, moves between groups, updates and
/// deletes, after a compaction on PostgreSQL, and in a store from before the counts were kept, once it is migrated.
@Suite("Kept group counts")
struct GroupCountTests {
    @Test("SQLite: kept counts equal the reports' counts through random changes")
    func sqlite() throws { try Self.randomChanges(.sqlite) }

    @Test("PostgreSQL: kept counts equal the reports' counts through random changes and compactions", .needsPostgres)
    func postgres() throws { try Self.randomChanges(.postgres) }

    @Test("SQLite: a store from before the counts were kept gets them when it is migrated")
    func sqliteMigration() throws { try Self.migration(.sqlite) }

    @Test("PostgreSQL: a store from before the counts were kept gets them when it is migrated", .needsPostgres)
    func postgresMigration() throws { try Self.migration(.postgres) }

    static func randomChanges(_ kind: StoreKind) throws {
        // Given a store holding the samples
        let folder = try TemporaryFolder("group-counts")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        try expectKeptCountsMatch(store, "after the samples' ingest")
        let sample = try #require(try store.allRecords().first)
        let trail = try #require(try store.allRecords().lazy.compactMap { $0.trail }.first.map { try Trail(json: Array($0.utf8)) })
        var random = SplitMix64(seed: 24)
        let signatures = ["EXC_BAD_ACCESS @ A.a()", "EXC_CRASH @ B.b()", "SIGABRT @ C.c()", "zombie @ D.d()"]
        let sources: [TrailInfo.Source] = [.missing, .embedded, .inferred, .missing]
        let paths: [String?] = [nil, #"["Home","Cart"]"#, #"["Home","Search","Item"]"#]
        var next = 0

        for round in 0..<6 {
            // When reports arrive in batches (multi-row statements, as PostgreSQL stores them, and one at a time)
            var batch: [ReportRecord] = []
            for _ in 0..<40 {
                var record = sample
                next += 1
                record.id = "G\(round)-\(next)"
                record.sha256 = String(format: "%064x", 1000 + next)
                record.signature = signatures[Int(random.next() % 4)]
                record.appVersion = ["1.0", "1.1", nil, "unknown"][Int(random.next() % 4)]
                record.time = random.next() % 5 == 0 ? nil : "2026-11-\(10 + random.next() % 9)T08:00:00.000Z"
                record.bundleID = random.next() % 7 == 0 ? nil : "com.example.app"
                record.trailSource = sources[Int(random.next() % 4)]
                record.screenPath = record.trailSource == .missing ? nil : paths[Int(random.next() % 3)]
                record.pathManifest = record.screenPath == nil ? nil : ["m1", "m2"][Int(random.next() % 2)]
                batch.append(record)
            }
            _ = try store.write { db in try ReportStore.insert(batch, rowsPerStatement: round % 2 == 0 ? 7 : 1, in: db) }
            // (and again, each a duplicate now, which counts for nothing)
            _ = try store.write { db in try ReportStore.insert(batch, rowsPerStatement: round % 2 == 0 ? 1 : 7, in: db) }
            try expectKeptCountsMatch(store, "after round \(round)'s inserts")

            // And trails join reports waiting for one, some moving them to another group
            let waiting = try store.read { db in
                try db.strings("SELECT id FROM report WHERE trailSource IN ('missing', 'inferred') ORDER BY id")
            }
            for id in waiting where random.next() % 3 == 0 {
                let path = paths[Int(random.next() % 3)].map { screens in
                    StoredScreenPath(screensJSON: screens, manifest: "m1")
                }
                try store.write { db in
                    try ReportStore.attach(DecodedTrail(trail), toReport: id, screenPath: path ?? nil, in: db)
                    if random.next() % 2 == 0 {
                        try db.execute(
                            "UPDATE report SET signature = ? WHERE id = ?", [.text(signatures[Int(random.next() % 4)]), .text(id)])
                    }
                }
            }
            try expectKeptCountsMatch(store, "after round \(round)'s joins")

            // And reports are updated, joined trails change or leave, and reports are deleted
            let ids = try store.read { db in try db.strings("SELECT id FROM report ORDER BY id") }
            try store.write { db in
                for id in ids {
                    switch random.next() % 12 {
                    case 0:
                        try db.execute(
                            "UPDATE report SET appVersion = ?, time = ?, trailSource = ? WHERE id = ?",
                            [.text("2.0"), .null, .text("embedded"), .text(id)])
                    case 1:
                        try db.execute(
                            "UPDATE joinedTrail SET screenPath = ?, pathManifest = 'm2' WHERE id = ?", [.text(#"["Other"]"#), .text(id)])
                    case 2: try db.execute("DELETE FROM joinedTrail WHERE id = ?", [.text(id)])
                    case 3: try db.execute("DELETE FROM report WHERE id = ?", [.text(id)])
                    case 4:
                        // (as reprocess stores a path replayed again, or an app read again)
                        try db.execute(
                            "UPDATE report SET screenPath = ?, pathManifest = ?, bundleID = ? WHERE id = ?",
                            [
                                paths[Int(random.next() % 3)].map(StoreValue.text) ?? .null, .text(["m1", "m2"][Int(random.next() % 2)]),
                                random.next() % 5 == 0 ? .null : .text("com.example.app"), .text(id),
                            ])
                    default: break
                    }
                }
            }
            try expectKeptCountsMatch(store, "after round \(round)'s changes")
            if round % 2 == 1 {
                store.compact()
                try expectKeptCountsMatch(store, "after round \(round)'s compaction")
            }
        }
        // A compaction leaves one row per group, and no path count below zero; SQLite's path counts keep none at zero
        if store.backend is PostgresBackend {
            store.compact()
            let (rows, keys) = try store.read { db in
                (
                    try db.value("SELECT COUNT(*) FROM groupCount")?.integer ?? -1,
                    try db.value("SELECT COUNT(DISTINCT signature) FROM groupCount")?.integer ?? -2
                )
            }
            #expect(rows == keys)
            #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM groupPathCount WHERE reports < 0")?.integer } == 0)
        } else {
            #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM groupPathCount WHERE reports <= 0")?.integer } == 0)
        }
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM groupPathCount")?.integer ?? 0 } > 0)
    }

    static func migration(_ kind: StoreKind) throws {
        // Given a store whose reports were stored before the counts were kept: its count tables and triggers gone, and
        // its record of the migration with them
        let folder = try TemporaryFolder("group-count-migration")
        defer { folder.remove() }
        let (store, name) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        try store.write { db in try TestStores.dropKeptCounts(kind, in: db) }

        // When it is opened again
        let told = MigrationsTold()
        let migrated = try TestStores.open(name, willMigrate: told.record)

        // Then the opener was told of the two migrations before they ran, and they counted the reports already stored
        let migrations =
            kind == .sqlite
            ? "v11: group counts kept as reports arrive, v12: path counts kept as reports arrive"
            : "v7: group counts kept as reports arrive, v9: path counts kept as reports arrive"
        #expect(told.lists == [migrations])
        #expect(try migrated.groups().count > 1)
        try expectKeptCountsMatch(migrated, "after the migration")

        // And a store that is up to date, or new, is opened without a word
        let again = MigrationsTold()
        _ = try TestStores.open(name, willMigrate: again.record)
        let fresh = kind == .sqlite ? folder.url.appendingPathComponent("new.sqlite").path : try TestStores.newDatabase()
        _ = try TestStores.open(fresh, willMigrate: again.record)
        #expect(again.lists.isEmpty, "\(again.lists)")
    }

    /// Checks every read of the kept counts against the same counts made from the reports.
    static func expectKeptCountsMatch(_ store: ReportStore, _ moment: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let hasTrail = "trailSource IN ('embedded', 'joined', 'inferred')"
        let expected = try store.read { db in
            var groups: [String: CrashGroup] = [:]
            for row in try db.rows(
                """
                SELECT signature, COUNT(*) AS n, MIN(time) AS first, MAX(time) AS last,
                    SUM(CASE WHEN \(hasTrail) THEN 1 ELSE 0 END) AS trailed, SUM(CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END) AS inferred
                FROM reportWithTrail GROUP BY signature
                """, [])
            {
                let signature = try row.requiredString("signature")
                let versions = try db.strings(
                    "SELECT DISTINCT appVersion FROM reportWithTrail WHERE signature = ? AND appVersion IS NOT NULL", [.text(signature)])
                groups[signature] = CrashGroup(
                    signature: signature, count: row.int("n") ?? 0, firstSeen: row.string("first"), lastSeen: row.string("last"),
                    versions: versions.sorted(by: CanonicalJSON.codePointPrecedes), withTrail: row.int("trailed") ?? 0,
                    inferred: row.int("inferred") ?? 0)
            }
            return groups
        }
        let kept = try store.groups()
        #expect(Dictionary(uniqueKeysWithValues: kept.map { ($0.signature, $0) }) == expected, "\(moment)", sourceLocation: sourceLocation)
        #expect(kept.map(\.inferred) == kept.map { expected[$0.signature]?.inferred ?? -1 }, "\(moment)", sourceLocation: sourceLocation)

        for group in kept {
            let detail = try store.groupDetail(matchingPrefix: group.id, reportLimit: 1)
            #expect(detail.group == group, "\(moment)", sourceLocation: sourceLocation)
            let (byVersion, byDay) = try store.read { db in
                func counts(_ key: String) throws -> [String: Int] {
                    var result: [String: Int] = [:]
                    for row in try db.rows(
                        "SELECT \(key) AS name, COUNT(*) AS n FROM report WHERE signature = ? GROUP BY \(key)", [.text(group.signature)])
                    {
                        result[row.string("name") ?? "?", default: 0] += row.int("n") ?? 0
                    }
                    return result
                }
                return (
                    try counts("COALESCE(appVersion, 'unknown')"),
                    try counts("CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END")
                )
            }
            #expect(Dictionary(uniqueKeysWithValues: detail.byVersion.map { ($0.version, $0.count) }) == byVersion, "\(moment)")
            #expect(Dictionary(uniqueKeysWithValues: detail.byDay.map { ($0.day, $0.count) }) == byDay, "\(moment)")
        }

        for signature in [nil] + kept.map(\.signature) {
            let actual = Dictionary(uniqueKeysWithValues: try store.pathCounts(signature: signature).map { ($0.key, $0.reports) })
            let reference = try store.read { db in
                var counts: [ReportStore.PathKey: Int] = [:]
                for row in try db.rows(
                    """
                    SELECT bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail
                    WHERE \(hasTrail)\(signature == nil ? "" : " AND signature = ?")
                    """, signature.map { [.text($0)] } ?? [])
                {
                    let key = ReportStore.PathKey(
                        bundleID: row.string("bundleID") ?? "", inferred: row.string("trailSource") == "inferred",
                        screensJSON: row.string("screenPath") ?? "", manifest: row.string("pathManifest") ?? "")
                    counts[key, default: 0] += 1
                }
                return counts
            }
            #expect(actual == reference, "\(moment), paths of \(signature ?? "every group")", sourceLocation: sourceLocation)
        }
    }
}

/// The migrations a store's opener was told of, each call's names joined by ", ".
final class MigrationsTold: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var lists: [String] { lock.withLock { recorded } }

    @Sendable func record(_ migrations: [String]) { lock.withLock { recorded.append(migrations.joined(separator: ", ")) } }
}
