import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// A project's groups (SPEC section 19), on both backends.
///
/// The same crash in two projects is a group in each, counted from that project's reports only. Each project's groups are checked against counts made here from every
/// stored report, so the kept counts, the first project's "store less the others" and another project's count from its
/// reports must all agree with the reports themselves.
@Suite("A project's groups on both backends")
struct ProjectGroupsBackendTests {
    @Test("On SQLite: each project's groups, details, paths and reports are its reports' only")
    func onSQLite() throws { try Self.groups(on: .sqlite) }

    @Test("On PostgreSQL: each project's groups, details, paths and reports are its reports' only", .needsPostgres)
    func onPostgres() throws { try Self.groups(on: .postgres) }

    /// A group as counted here: its reports, with a trail, inferred, versions, first and last time.
    struct Expected: Equatable {
        var count = 0
        var withTrail = 0
        var inferred = 0
        var versions: Set<String> = []
        var firstSeen: String?
        var lastSeen: String?
    }

    /// The groups of `records`, counted one by one.
    static func expected(_ records: [ReportRecord]) -> [String: Expected] {
        var groups: [String: Expected] = [:]
        for record in records {
            var group = groups[record.signature] ?? Expected()
            group.count += 1
            if record.trailSource.hasTrail { group.withTrail += 1 }
            if record.trailSource == .inferred { group.inferred += 1 }
            if let version = record.appVersion { group.versions.insert(version) }
            if let time = record.time {
                group.firstSeen = min(group.firstSeen ?? time, time)
                group.lastSeen = max(group.lastSeen ?? time, time)
            }
            groups[record.signature] = group
        }
        return groups
    }

    /// The groups the store gives, in the same form.
    static func actual(_ groups: [CrashGroup]) -> [String: Expected] {
        Dictionary(
            uniqueKeysWithValues: groups.map { group in
                (
                    group.signature,
                    Expected(
                        count: group.count, withTrail: group.withTrail, inferred: group.inferred, versions: Set(group.versions),
                        firstSeen: group.firstSeen, lastSeen: group.lastSeen)
                )
            })
    }

    static func groups(on kind: StoreKind) throws {
        // Given a store of the samples, all in the first project: a read of that project is the store's
        let folder = try TemporaryFolder("project-groups")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        #expect(try store.readsEveryReport(1))
        #expect(try !store.readsEveryReport(2))
        #expect(try store.groups(ReportFilter(project: 1)) == store.groups())

        // When copies of some of them go to projects 2 and 3: the same crashes, other versions and times, one crash
        // only project 3 has
        let samples = try store.allRecords()
        let shared = try #require(samples.first { $0.trailSource == .embedded })
        let other = try #require(samples.first { $0.signature != shared.signature })
        var copies = TestStores.copies(of: shared, count: 3) + TestStores.copies(of: other, count: 2)
        for index in copies.indices {
            copies[index].id = "P2-\(index)"
            copies[index].project = 2
            copies[index].appVersion = "9.\(index)"
        }
        // Two of the shared crash's copies keep its trail, one waits for one
        for index in 0..<2 {
            copies[index].trailSource = shared.trailSource
            copies[index].trail = shared.trail
            copies[index].trailSteps = shared.trailSteps
        }
        var only = TestStores.copies(of: other, count: 1)[0]
        only.id = "P3-only"
        only.project = 3
        only.signature = "a crash of project 3 only"
        only.sha256 = String(repeating: "e", count: 64)
        try store.write { db in
            for record in copies + [only] { _ = try ReportStore.insert(record, in: db) }
        }

        // Then each project's groups are its reports', counted here; every project's are the store's
        let all = try store.allRecords()
        #expect(try !store.readsEveryReport(1))
        for project: ProjectID in [1, 2, 3] {
            let own = all.filter { $0.project == project }
            #expect(
                Self.actual(try store.groups(ReportFilter(project: .one(project)))) == Self.expected(own), "project \(project)")
            #expect(
                Self.actual(try store.groups(ReportFilter(signature: shared.signature, project: .one(project))))
                    == Self.expected(own.filter { $0.signature == shared.signature }), "project \(project), one group")
        }
        #expect(Self.actual(try store.groups()) == Self.expected(all))
        #expect(try store.groups(ReportFilter(project: 4)).isEmpty)

        // And a group's detail, its reports and its paths are the project's
        let sharedID = CrashGroup.id(ofSignature: shared.signature)
        for project: ProjectID in [1, 2] {
            let own = all.filter { $0.project == project && $0.signature == shared.signature }
            let detail = try store.groupDetail(matchingPrefix: sharedID, project: .one(project))
            #expect(detail.group.count == own.count)
            #expect(detail.byVersion.map(\.count).reduce(0, +) == own.count)
            #expect(detail.byDay.map(\.count).reduce(0, +) == own.count)
            #expect(Set(detail.reports.map(\.id)) == Set(own.map(\.id)))
            #expect(
                Set(try store.reports(ReportFilter(project: .one(project))).map(\.id))
                    == Set(all.filter { $0.project == project }.map(\.id)))
            var paths = 0
            try store.forEachPathCount(signature: shared.signature, project: .one(project)) { paths += $0.reports }
            #expect(paths == own.filter { $0.trailSource.hasTrail }.count, "project \(project)'s paths")
        }
        #expect(try store.groupDetail(matchingPrefix: sharedID, project: 2).byVersion.map(\.version) == ["9.0", "9.1", "9.2"])

        // And another project's group, or report, is not found by a prefix, nor named as a candidate
        let onlyID = CrashGroup.id(ofSignature: only.signature)
        #expect(try store.group(matchingPrefix: onlyID, project: 3).count == 1)
        #expect(throws: StoreError.self) { try store.group(matchingPrefix: onlyID, project: 1) }
        #expect(throws: StoreError.self) { try store.record(matchingPrefix: "P3-only", project: 2) }
        #expect(try store.record(matchingPrefix: "P3", project: 3).id == "P3-only")
        let error = #expect(throws: StoreError.self) { try store.record(matchingPrefix: "P", project: 2) }
        #expect(error?.code == .ambiguous)
        #expect(error?.candidates.allSatisfy { $0.hasPrefix("P2-") } == true)

        // And a project's report is found by a prefix that more than 20 of another project's IDs share, sorted first
        try store.write { db in
            for index in 0..<25 {
                var record = only
                record.id = String(format: "Q3-%02d", index)
                record.sha256 = String(format: "%064x", 1_000 + index)
                _ = try ReportStore.insert(record, in: db)
            }
            var last = only
            last.id = "Qz-only"
            last.project = 2
            last.sha256 = String(format: "%064x", 2_000)
            _ = try ReportStore.insert(last, in: db)
        }
        #expect(try store.record(matchingPrefix: "q", project: 2).id == "Qz-only")
        #expect(throws: StoreError.self, "project 1 has no such report") { try store.record(matchingPrefix: "Q", project: 1) }
        let several = #expect(throws: StoreError.self) { try store.record(matchingPrefix: "Q3-0", project: 3) }
        #expect(several?.candidates.count == 10)

        // And the crash trails a project's health replays are its own
        var trails: Set<String> = []
        try store.forEachCrashTrail(project: 2) { trails.insert($0.id) }
        #expect(trails == Set(copies.filter { $0.trailSource.hasTrail && $0.trailSource != .inferred }.map(\.id)))
    }
}
