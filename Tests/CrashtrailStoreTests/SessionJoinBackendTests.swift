import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Joining by session and trails waiting for their crashes (SPEC section 18), on both backends.
@Suite("Session joins and waiting trails on both backends")
struct SessionJoinBackendTests {
    @Test("On SQLite: by session across hours, a waiting trail joins its crash once, the bound holds")
    func onSQLite() throws { try Self.sessionJoins(on: .sqlite) }

    @Test("On PostgreSQL: by session across hours, a waiting trail joins its crash once, the bound holds", .needsPostgres)
    func onPostgres() throws { try Self.sessionJoins(on: .postgres) }

    @Test("On SQLite: a project's waiting totals follow every trail that comes and goes; a joined trail is found by its digest")
    func totalsOnSQLite() throws { try Self.totalsAndDigests(on: .sqlite) }

    @Test(
        "On PostgreSQL: a project's waiting totals follow every trail that comes and goes; a joined trail is found by its digest",
        .needsPostgres)
    func totalsOnPostgres() throws { try Self.totalsAndDigests(on: .postgres) }

    static func totalsAndDigests(on kind: StoreKind) throws {
        // Given a store with the samples and a trail of theirs
        let folder = try TemporaryFolder("waiting-totals")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let trail = try #require(try store.allRecords().first { $0.trailSource == .joined }?.decodedTrail())
        let template = try #require(try store.allRecords().first { $0.trailSource == .missing })
        func waiting(_ session: String, steps: Int, project: ProjectID) -> ReportStore.WaitingTrail {
            var copy = trail
            copy.session.id = session
            copy.steps = Array(copy.steps.prefix(steps))
            return ReportStore.WaitingTrail(
                bundleID: trail.app.bundleID, session: session, pid: trail.session.pid, started: 0, steps: copy.steps.count,
                trail: String(decoding: DecodedTrail(copy).canonicalJSON, as: UTF8.self), dictionary: nil, screenPath: nil,
                crashScreen: nil, project: project)
        }
        /// The totals row of each project against what its waiting trails are.
        func totalsAgree() throws -> Bool {
            try store.read { db in
                let kept = try db.rows("SELECT project, count, bytes FROM waitingTrailTotal WHERE count <> 0 ORDER BY project", [])
                    .map { [$0.int64("project"), $0.int64("count"), $0.int64("bytes")] }
                let actual = try db.rows(
                    """
                    SELECT project, COUNT(*) AS n, CAST(SUM(size) AS BIGINT) AS bytes FROM waitingTrail
                    GROUP BY project ORDER BY project
                    """, []
                ).map { [$0.int64("project"), $0.int64("n"), $0.int64("bytes")] }
                return kept == actual
            }
        }
        let limits = ReportStore.WaitingTrailLimits(maximumCount: 10, maximumBytes: 1 << 24, maximumAge: 10_000)
        func keep(_ trail: ReportStore.WaitingTrail, at now: Int64) throws -> ReportStore.WaitOutcome {
            try store.write { db in try ReportStore.keepWaiting(trail, limits: limits, now: now, in: db) }
        }

        // When trails wait in two projects, one is replaced by a longer one of its session, and a shorter one is refused
        #expect(try keep(waiting("A", steps: 2, project: 1), at: 1_000) == .waiting)
        #expect(try keep(waiting("B", steps: 3, project: 1), at: 1_000) == .waiting)
        #expect(try keep(waiting("C", steps: 3, project: 2), at: 1_000) == .waiting)
        #expect(try keep(waiting("A", steps: 4, project: 1), at: 5_000) == .waiting)
        #expect(try keep(waiting("A", steps: 1, project: 1), at: 5_000) == .waiting)
        // Then the totals are what the trails are
        #expect(try totalsAgree())
        #expect(try store.waitingTrailStatus().count == 3)

        // When B and C expire (a trail kept 11 s after them), and A's crash is stored and joins it
        #expect(try keep(waiting("D", steps: 2, project: 1), at: 12_000) == .waiting)
        var crash = TestStores.copies(of: template, count: 1)[0]
        crash.id = "T-A"
        crash.bundleID = trail.app.bundleID
        crash.sessionID = "A"
        let outcomes = try store.write { db in try IntakeBatch.apply([.reports([crash], idDecides: false)], in: db) }
        // Then A joined and only D waits, the totals with them
        #expect(outcomes == [.reports([.stored("T-A")], joinedWaiting: ["T-A"])])
        #expect(try totalsAgree())
        #expect(try store.waitingTrailStatus().count == 1)

        // When A's trail is sent again (the journal uploaded twice), and a trail of A's session one byte different
        var again = trail
        again.session.id = "A"
        again.steps = Array(again.steps.prefix(4))
        var other = again
        other.app.build += "9"
        let found = try store.write { db in
            (
                try ReportStore.reportJoined(to: DecodedTrail(again), started: 0, tolerance: 2000, in: db),
                try ReportStore.reportJoined(to: DecodedTrail(other), started: 0, tolerance: 2000, in: db)
            )
        }
        // Then the first is found joined, by its digest, and the other is not
        #expect(found.0 == "T-A")
        #expect(found.1 == nil)
    }

    static func sessionJoins(on kind: StoreKind) throws {
        // Given a store with the samples, and a crash of theirs that awaits a trail
        let folder = try TemporaryFolder("session-join")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let joined = try #require(try store.allRecords().first { $0.trailSource == .joined })
        let trail = try #require(try joined.decodedTrail())
        let template = try #require(try store.allRecords().first { $0.trailSource == .missing })
        var crashes = TestStores.copies(of: template, count: 3).map { copy -> ReportRecord in
            var copy = copy
            copy.id = "S-" + copy.id
            copy.bundleID = trail.app.bundleID
            copy.pid = trail.session.pid
            // Launched six hours before the session started: iOS prewarmed the process.
            copy.launchTime = (Timestamp.milliseconds(parsing: trail.session.started) ?? 0) - 6 * 3_600_000
            return copy
        }
        crashes[0].sessionID = "SESSION-0"
        crashes[1].sessionID = "SESSION-1"

        // When the crash of SESSION-0 is stored, then a trail of that session comes
        try store.write { db in _ = try IntakeBatch.apply([.reports([crashes[0]], idDecides: false)], in: db) }
        var ofSession0 = trail
        ofSession0.session.id = "SESSION-0"
        let bySession = try store.write { db in
            try ReportStore.joinClosestReport(
                DecodedTrail(ofSession0), bundleID: trail.app.bundleID, pid: trail.session.pid,
                started: Timestamp.milliseconds(parsing: trail.session.started) ?? 0, tolerance: 2000, in: db)
        }
        // Then it joins by session, however far the launch
        #expect(bySession == crashes[0].id)

        // When a trail of SESSION-1 comes first and waits, then its crash
        var ofSession1 = trail
        ofSession1.session.id = "SESSION-1"
        let limits = ReportStore.WaitingTrailLimits(maximumCount: 1, maximumBytes: 1 << 20, maximumAge: 86_400_000)
        let waiting = ReportStore.WaitingTrail(
            bundleID: trail.app.bundleID, session: "SESSION-1", pid: trail.session.pid, started: 0, steps: trail.steps.count,
            trail: String(decoding: DecodedTrail(ofSession1).canonicalJSON, as: UTF8.self), dictionary: nil, screenPath: nil,
            crashScreen: nil)
        let kept = try store.write { db in try ReportStore.keepWaiting(waiting, limits: limits, now: 1_000, in: db) }
        var other = waiting
        other.session = "SESSION-9"
        let full = try store.write { db in try ReportStore.keepWaiting(other, limits: limits, now: 1_001, in: db) }
        #expect(kept == .waiting)
        #expect(full == .full(count: 1, bytes: Int64(waiting.trail.utf8.count)))
        #expect(try store.waitingTrailStatus().count == 1)
        #expect(try store.waitingTrailStatus().bytes == Int64(waiting.trail.utf8.count))
        let outcomes = try store.write { db in
            try IntakeBatch.apply([.reports([crashes[1], crashes[2]], idDecides: false)], in: db)
        }

        // Then the crash of SESSION-1 joins it, the one without a session does not, and nothing waits any more
        #expect(outcomes == [.reports([.stored(crashes[1].id), .stored(crashes[2].id)], joinedWaiting: [crashes[1].id])])
        let record = try #require(try store.record(id: crashes[1].id))
        #expect(record.trailSource == .joined)
        #expect(try record.decodedTrail()?.session.id == "SESSION-1")
        #expect(try store.record(id: crashes[2].id)?.trailSource == .missing)
        #expect(try store.waitingTrailStatus().count == 0)

        // When a trail waits though its crash is stored (two workers committed them at the same instant, so neither
        // saw the other: here the crash is inserted without the join), and the store is swept
        var raced = TestStores.copies(of: template, count: 5)[4]
        raced.id = "S-RACED"
        raced.bundleID = trail.app.bundleID
        raced.sessionID = "SESSION-RACE"
        try store.write { db in
            _ = try ReportStore.insert([raced], idDecides: false, in: db)
            try ReportStore.insertSession(of: raced.id, bundleID: trail.app.bundleID, session: "SESSION-RACE", in: db)
        }
        var racing = waiting
        racing.session = "SESSION-RACE"
        _ = try store.write { db in try ReportStore.keepWaiting(racing, limits: limits, now: 2_000, in: db) }
        let swept = try store.sweepWaitingTrails(tolerance: 2000)

        // Then the trail joins its crash, once
        #expect(swept == ["S-RACED"])
        #expect(try store.record(id: "S-RACED")?.trailSource == .joined)
        #expect(try store.waitingTrailStatus().count == 0)
        #expect(try store.sweepWaitingTrails(tolerance: 2000).isEmpty)
    }
}
