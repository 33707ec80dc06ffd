import CrashtrailCore
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// The plans of the store's questions, pinned on both backends: each listing reads an index in the order it lists, so
/// its first page costs the same at any store size; groups read the kept counts; and a later change cannot
/// bring back a full scan or a sort unnoticed.
@Suite("Query plans")
struct QueryPlanTests {
    @Test("SQLite: listings read their index in order, one report reads one row")
    func sqlite() throws { try Self.check(.sqlite) }

    @Test("PostgreSQL: listings read their index in order, one report reads one row", .needsPostgres)
    func postgres() throws { try Self.check(.postgres) }

    /// The plan of `sql`, one line a node: SQLite's `EXPLAIN QUERY PLAN` details, PostgreSQL's `EXPLAIN` text with
    /// sequential scans off, so that the plan shows whether an index can serve the query on a test-sized table.
    static func plan(_ sql: String, _ arguments: [StoreValue], in store: ReportStore, _ kind: StoreKind) throws -> [String] {
        try store.read { db in
            switch kind {
            case .sqlite:
                return try db.rows("EXPLAIN QUERY PLAN " + sql, arguments).compactMap { $0.string("detail") }
            case .postgres:
                _ = try db.execute("SET LOCAL enable_seqscan = off")
                return try db.rows("EXPLAIN " + sql, arguments).compactMap { $0[0].text }
            }
        }
    }

    static func check(_ kind: StoreKind) throws {
        let folder = try TemporaryFolder("query-plans")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let group = try #require(try store.groups().first)
        let sorts = kind == .sqlite ? "TEMP B-TREE" : "Sort"
        let fullScans = kind == .sqlite ? "SCAN r USING INDEX sqlite_autoindex_report_1" : "Seq Scan on report"

        // `list --reports --limit 50`: the newest first, from report_recent, no sort.
        let listingAll = ReportStore.listing(.all, limit: 50, store.dialect)
        let all = try plan(listingAll.sql, listingAll.arguments, in: store, kind)
        #expect(all.contains { $0.contains("report_recent") }, "\(all)")
        #expect(!all.contains { $0.contains(sorts) || $0.contains(fullScans) }, "\(all)")

        // `list --group G --limit 50` and a group's page: its newest first, from report_group_recent, no sort.
        let filter = ReportFilter(signature: group.signature)
        let listingGroup = ReportStore.listing(filter, limit: 50, store.dialect)
        let byGroup = try plan(listingGroup.sql, listingGroup.arguments, in: store, kind)
        #expect(byGroup.contains { $0.contains("report_group_recent") }, "\(byGroup)")
        #expect(!byGroup.contains { $0.contains(sorts) || $0.contains(fullScans) }, "\(byGroup)")

        // `show ID` and `replay ID`: one row by its primary key.
        let one = try plan("SELECT * FROM reportWithTrail WHERE id = ?", [.text("x")], in: store, kind)
        let primaryKey = kind == .sqlite ? "(id=?)" : "report_pkey"
        #expect(one.contains { $0.contains(primaryKey) }, "\(one)")
        #expect(!one.contains { $0.contains(fullScans) }, "\(one)")

        // `show PREFIX` and `replay PREFIX`: each step of the walk over IDs reads the primary key's index from a text on.
        let fromPrefix = try plan(ReportStore.idsFromSQL(limit: 1), [.text("AB")], in: store, kind)
        let idIndex = kind == .sqlite ? "sqlite_autoindex_report_1 (id>?)" : "report_pkey"
        #expect(fromPrefix.contains { $0.contains(idIndex) }, "\(fromPrefix)")
        #expect(!fromPrefix.contains { $0.contains(sorts) || $0.contains(fullScans) }, "\(fromPrefix)")

        // `paths GROUP`: the group's kept path counts, found by their group; no report is read, and on SQLite, where a
        // key has one row, nothing is sorted or grouped.
        let reportScans = kind == .sqlite ? "SCAN report" : "Seq Scan on report"
        let readsReports = { (line: String) in line.range(of: #"\breport\b"#, options: .regularExpression) != nil }
        let keyed = kind == .sqlite ? "USING PRIMARY KEY (signature=?)" : "_signature"
        let paths = try plan(
            ReportStore.pathCountsSQL(signature: group.signature, store.dialect), [.text(group.signature)], in: store, kind)
        #expect(paths.contains { $0.contains(keyed) } && !paths.contains(where: readsReports), "\(paths)")
        if kind == .sqlite { #expect(!paths.contains { $0.contains(sorts) }, "\(paths)") }

        // `list` and `show GROUP`: the kept counts, and each group's first and last time from the ends of its range of
        // report_group_recent; no report is read beyond those.
        for signature in [nil, group.signature] {
            let arguments: [StoreValue] = signature.map { [.text($0)] } ?? []
            let groups = try plan(ReportStore.keptGroupsSQL(signature: signature, store.dialect), arguments, in: store, kind)
            #expect(groups.contains { $0.lowercased().contains("groupcount") }, "\(groups)")
            #expect(groups.filter { $0.contains("report_group_recent") }.count == 2, "\(groups)")
            #expect(!groups.contains { $0.contains(reportScans) || $0.contains(fullScans) }, "\(groups)")
            let versions = try plan(ReportStore.keptVersionsSQL(signature: signature), arguments, in: store, kind)
            #expect(
                versions.contains { $0.lowercased().contains("groupversioncount") } && !versions.contains(where: readsReports),
                "\(versions)")
        }
        for sql in [ReportStore.keptVersionCountsSQL, ReportStore.keptDayCountsSQL] {
            let counts = try plan(sql, [.text(group.signature)], in: store, kind)
            #expect(counts.contains { $0.contains(keyed) } && !counts.contains(where: readsReports), "\(counts)")
        }
    }
}
