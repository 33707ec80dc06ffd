import CrashtrailCore
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Release health in the store (SPEC section 20), on both backends: session counts merge exactly, from one service or
/// many writing at once; the users' sketches merge; path visits sum their weights; projects stay apart.
@Suite("Release health on both backends")
struct HealthStoreTests {
    @Test("On SQLite: counts and users merge, path weights sum, projects and releases stay apart")
    func onSQLite() throws { try Self.health(on: .sqlite) }

    @Test("On PostgreSQL: counts and users merge, path weights sum, projects and releases stay apart", .needsPostgres)
    func onPostgres() throws { try Self.health(on: .postgres) }

    @Test("On PostgreSQL: four services adding to the same hour at once lose no count", .needsPostgres)
    func concurrentServicesOnPostgres() throws { try Self.concurrentServices(on: .postgres) }

    @Test("On SQLite: four writers adding to the same hour at once lose no count")
    func concurrentWritersOnSQLite() throws { try Self.concurrentServices(on: .sqlite) }

    @Test("On SQLite: a session sent again counts once, after a reopen too; the memory is bounded in time and number")
    func resentSessionsOnSQLite() throws { try Self.resentSessions(on: .sqlite) }

    @Test("On PostgreSQL: a session sent again counts once, after a reopen too; the memory is bounded in time and number", .needsPostgres)
    func resentSessionsOnPostgres() throws { try Self.resentSessions(on: .postgres) }

    static let release = "com.example.piratebay@3.1.0+412"

    static func resentSessions(on kind: StoreKind) throws {
        // Given a store, and the first updates of three sessions committed at 10:00
        let folder = try TemporaryFolder("health-resent")
        defer { folder.remove() }
        let (store, name) = try TestStores.make(kind, in: folder)
        let ten = try #require(Timestamp.milliseconds(parsing: "2026-11-28T10:00:00Z"))
        func update(_ sid: String, _ status: String, first: Bool) throws -> SessionTally {
            var tally = SessionTally()
            try tally.add(
                update: try JSONParser.parse(
                    Array(
                        #"{"sid":"\#(sid)","did":"user-\#(sid)","init":\#(first),"started":"2026-11-28T09:59:00Z","status":"\#(status)","attrs":{"release":"\#(release)"}}"#
                            .utf8)))
            return tally
        }
        func commit(_ tallies: [SessionTally], at now: Int64, into store: ReportStore, memory: ReportStore.SessionMemory? = nil) throws {
            try store.write { db in
                for tally in tallies {
                    if let memory {
                        try ReportStore.addSessions(tally, project: 1, now: now, memory: memory, in: db)
                    } else {
                        _ = try IntakeBatch.apply([.sessions(tally, project: 1)], in: db, now: now)
                    }
                }
            }
        }
        func counts() throws -> (started: Int64, crashed: Int64) {
            let counts = try store.releaseSessions(project: 1, release: nil, sinceHour: nil).first?.counts
            return (counts?.started ?? 0, counts?.crashed ?? 0)
        }
        try commit(["a", "b", "c"].map { try update($0, "ok", first: true) }, at: ten, into: store)

        // When the same first updates come again, to the store opened anew (a restart), with a's crash
        let reopened = try TestStores.open(name)
        try commit(
            [try update("a", "ok", first: true), try update("b", "ok", first: true), try update("a", "crashed", first: false)],
            at: ten + 60_000, into: reopened)
        // Then three sessions started, one crashed
        #expect(try counts() == (3, 1))
        // When a's crash comes again
        try commit([try update("a", "crashed", first: false)], at: ten + 120_000, into: reopened)
        // Then it is counted once
        #expect(try counts() == (3, 1))

        // When c's first update comes again more than a day after it was last seen: it was forgotten, so it counts again
        try commit([try update("c", "ok", first: true)], at: ten + 86_400_000 + 180_000, into: reopened)
        #expect(try counts() == (4, 1))

        // When the memory holds two sessions of the project, and d, e (twice) and f come, then d again
        let small = ReportStore.SessionMemory(window: 86_400_000 * 10, maximumPerProject: 2)
        let later = ten + 86_400_000 * 2
        for (offset, sid) in ["d", "e", "e", "f"].enumerated() {
            try commit([try update(sid, "ok", first: true)], at: later + Int64(offset), into: reopened, memory: small)
        }
        #expect(try counts() == (7, 1))
        try commit([try update("d", "ok", first: true)], at: later + 10, into: reopened, memory: small)
        // Then e counted once, and d twice: the oldest, it was forgotten when f came
        #expect(try counts() == (8, 1))
    }

    /// A tally of `count` sessions of users `first…`, the first `crashed` of them crashed; each tally's sessions have IDs
    /// of their own (a session sent again counts once).
    static func tally(count: Int, crashed: Int, firstUser: Int, hour: String = "2026-11-28T10:15:00Z") throws -> SessionTally {
        var tally = SessionTally()
        for index in 0..<count {
            let status = index < crashed ? "crashed" : "exited"
            let item =
                #"{"sid":"s\#(firstUser + index)-\#(count)-\#(crashed)","did":"user-\#(firstUser + index)","init":true,"started":"\#(hour)","status":"\#(status)","attrs":{"release":"\#(release)","environment":"production"}}"#
            try tally.add(update: try JSONParser.parse(Array(item.utf8)))
        }
        return tally
    }

    static func health(on kind: StoreKind) throws {
        // Given a store, and sessions added in three transactions: two to project 1 (overlapping users), one to project 2
        let folder = try TemporaryFolder("health-store")
        defer { folder.remove() }
        let (store, name) = try TestStores.make(kind, in: folder)
        try store.write { db in _ = try IntakeBatch.apply([.sessions(try tally(count: 10, crashed: 2, firstUser: 0), project: 1)], in: db) }
        let second = try TestStores.open(name)
        try second.write { db in
            _ = try IntakeBatch.apply(
                [
                    .sessions(try tally(count: 10, crashed: 1, firstUser: 5), project: 1),
                    .sessions(try tally(count: 4, crashed: 4, firstUser: 100, hour: "2026-11-27T10:00:00Z"), project: 2),
                ], in: db)
        }

        // When
        let project1 = try store.releaseSessions(project: 1, release: nil, sinceHour: nil)
        let all = try store.releaseSessions(project: .all, release: Self.release, sinceHour: nil)
        let since = try store.releaseSessions(
            project: .all, release: nil, sinceHour: (Timestamp.milliseconds(parsing: "2026-11-28T00:00:00Z") ?? 0) / 3_600_000)

        // Then: users 0…14 in project 1, of whom 0, 1 and 5 crashed
        let one = try #require(project1.first)
        #expect(project1.count == 1)
        #expect(one.counts.started == 20)
        #expect(one.counts.crashed == 3)
        #expect(one.counts.users.estimate == 15)
        #expect(one.counts.crashedUsers.estimate == 3)
        #expect(all.first?.counts.started == 24)
        #expect(all.first?.counts.users.estimate == 19)
        #expect(since.first?.counts.started == 20)

        // When sessions that did not crash add their paths, weighted, to two projects
        let visits = PathVisits(screens: ["home", "item", "home"])
        try store.write { db in
            try ReportStore.addPathVisits(visits, release: Self.release, weight: 4, project: 1, in: db)
            try ReportStore.addPathVisits(visits, release: Self.release, weight: 1, project: 1, in: db)
            try ReportStore.addPathVisits(PathVisits(screens: ["home"]), release: Self.release, weight: 2, project: 2, in: db)
        }

        // Then
        let paths = try store.cleanPathVisits(project: 1, release: Self.release)
        #expect(paths.total.cleanSessions == 5)
        #expect(paths.total.cleanSquares == 17)
        #expect(paths.total.sampledTrails == 2)
        #expect(paths.paths[PathVisits.Path(["home", "item"])]?.cleanSessions == 5)
        #expect(paths.paths[PathVisits.Path(["home", "item", "home"])]?.sampledTrails == 2)
        #expect(paths.paths.count == visits.paths.count)
        #expect(try store.cleanPathVisits(project: .all, release: nil).total.cleanSessions == 7)
        #expect(try store.cleanPathVisits(project: 2, release: Self.release).paths.count == 1)
        #expect(try store.pathVisitReleases(project: 1) == [Self.release])
        #expect(try store.pathVisitReleases(project: 3).isEmpty)

        // When sessions and paths are counted under no project (files counted before they were counted per project)
        try store.write { db in
            try ReportStore.addSessions(try tally(count: 6, crashed: 0, firstUser: 200), project: .unassigned, now: 0, in: db)
            try ReportStore.addPathVisits(PathVisits(screens: ["cart"]), release: "b@2", weight: 1, project: .unassigned, in: db)
        }

        // Then they are the first project's, as the reports of that time are, and never another project's
        #expect(try store.releaseSessions(project: 1, release: nil, sinceHour: nil).first?.counts.started == 26)
        #expect(try store.releaseSessions(project: 2, release: nil, sinceHour: nil).first?.counts.started == 4)
        #expect(try store.pathVisitReleases(project: 1) == ["b@2", Self.release].sorted())
        #expect(try store.pathVisitReleases(project: 2) == [Self.release])
        #expect(try store.cleanPathVisits(project: 1, release: "b@2").total.cleanSessions == 1)
    }

    static func concurrentServices(on kind: StoreKind) throws {
        // Given a store, and four services (or writers) on it
        let folder = try TemporaryFolder("health-store")
        defer { folder.remove() }
        let (store, name) = try TestStores.make(kind, in: folder)
        let services = try (0..<4).map { _ in try TestStores.open(name) }
        let failures = NSLock()
        nonisolated(unsafe) var failed: [String] = []

        // When each adds 25 tallies of 2 sessions (1 crashed) to the same hour, at once
        DispatchQueue.concurrentPerform(iterations: services.count) { worker in
            for round in 0..<25 {
                do {
                    let tally = try tally(count: 2, crashed: 1, firstUser: worker * 1000 + round * 2)
                    try services[worker].write { db in _ = try IntakeBatch.apply([.sessions(tally, project: 1)], in: db) }
                } catch {
                    failures.withLock { failed.append("\(worker)/\(round): \(error)") }
                }
            }
        }

        // Then nothing was lost
        #expect(failed.isEmpty, "\(failed.prefix(3))")
        let counts = try #require(try store.releaseSessions(project: 1, release: nil, sinceHour: nil).first?.counts)
        #expect(counts.started == 200)
        #expect(counts.crashed == 100)
        // 200 distinct users: the sketch's estimate is within 3 standard errors.
        #expect(abs(Double(counts.users.estimate) - 200) <= 3 * UserSketch.standardError * 200, "\(counts.users.estimate)")
    }
}
