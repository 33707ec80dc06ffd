import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailPostgres

/// Projects kept apart in the store (SPEC section 19): the same event ID, the same payload and the same session in
/// two projects, on both backends.
@Suite("Projects kept apart on both backends")
struct ProjectIsolationBackendTests {
    @Test("On SQLite: an event ID, a payload and a session of one project never touch another's")
    func onSQLite() throws { try Self.isolation(on: .sqlite) }

    @Test("On PostgreSQL: an event ID, a payload and a session of one project never touch another's", .needsPostgres)
    func onPostgres() throws { try Self.isolation(on: .postgres) }

    static func isolation(on kind: StoreKind) throws {
        // Given a store with the samples, a crash of theirs that awaits a trail, and its trail
        let folder = try TemporaryFolder("project-isolation")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let joined = try #require(try store.allRecords().first { $0.trailSource == .joined })
        let trail = try #require(try joined.decodedTrail())
        let template = try #require(try store.allRecords().first { $0.trailSource == .missing })
        func crash(_ id: String, project: ProjectID, session: String?, sha256: String? = nil, pid: Int64? = nil) -> ReportRecord {
            var copy = TestStores.copies(of: template, count: 1)[0]
            copy.id = id
            copy.project = project
            copy.bundleID = trail.app.bundleID
            copy.pid = pid ?? trail.session.pid
            copy.launchTime = Timestamp.milliseconds(parsing: trail.session.started) ?? 0
            copy.sessionID = session
            if let sha256 { copy.sha256 = sha256 }
            return copy
        }

        // When the same Sentry event ID comes to project 1, then to project 2, then each is sent again
        let event = "0123456789abcdef0123456789abcdef"
        let first = try store.write { db in
            try IntakeBatch.apply([.reports([crash(event, project: 1, session: "S-A")], idDecides: true)], in: db)
        }
        let second = try store.write { db in
            try IntakeBatch.apply(
                [.reports([crash(event, project: 2, session: nil, sha256: String(repeating: "b", count: 64), pid: 7)], idDecides: true)],
                in: db)
        }
        let retries = try store.write { db in
            try IntakeBatch.apply(
                [
                    .reports(
                        [
                            crash(event, project: 1, session: "S-A"),
                            crash(event, project: 2, session: nil, sha256: String(repeating: "b", count: 64), pid: 7),
                        ],
                        idDecides: true)
                ], in: db)
        }

        // Then each project keeps its own report once: project 2's under ID~p2
        #expect(first == [.reports([.stored(event)])])
        #expect(second == [.reports([.stored(event + "~p2")])])
        #expect(retries == [.reports([.duplicate(event), .duplicate(event + "~p2")])])
        #expect(try store.record(id: event)?.project == 1)
        #expect(try store.record(id: event + "~p2")?.project == 2)

        // When the same payload (no ID of its own: its digest names it) comes to both projects, by file
        let digest = String(repeating: "c", count: 64)
        let byDigest = try store.write { db in
            try IntakeBatch.apply(
                [
                    .reports(
                        [
                            crash(digest, project: 2, session: nil, sha256: digest, pid: 7),
                            crash(digest, project: 3, session: nil, sha256: digest, pid: 7),
                        ], idDecides: false)
                ],
                in: db)
        }

        // Then both are stored, and the payload look-up of one project does not see the other's
        #expect(byDigest == [.reports([.stored(digest), .stored(digest + "~p3")])])
        #expect(try store.reportID(payloadDigest: digest, project: 2) == digest)
        #expect(try store.reportID(payloadDigest: digest, project: 3) == digest + "~p3")
        #expect(try store.reportID(payloadDigest: digest, project: 4) == nil)

        // When project 2 sends a trail of project 1's session S-A (a DSN key of project 2 is all it takes)
        var ofSessionA = trail
        ofSessionA.session.id = "S-A"
        let started = Timestamp.milliseconds(parsing: trail.session.started) ?? 0
        let intruder = try store.write { db in
            try ReportStore.joinClosestReport(
                DecodedTrail(ofSessionA), bundleID: trail.app.bundleID, pid: trail.session.pid, started: started, tolerance: 2000,
                project: 2, in: db)
        }
        let intruderAgain = try store.write { db in
            try ReportStore.reportJoined(to: DecodedTrail(ofSessionA), started: started, tolerance: 2000, project: 2, in: db)
        }

        // Then it joins nothing: project 1's crash of that session, app, pid and launch is not project 2's
        #expect(intruder == nil)
        #expect(intruderAgain == nil)
        #expect(try store.record(id: event)?.trailSource == .missing, "project 1's crash of session S-A is untouched")

        // When project 1 sends it, it joins project 1's crash, and a retry from project 2 is not answered with it
        let owner = try store.write { db in
            try ReportStore.joinClosestReport(
                DecodedTrail(ofSessionA), bundleID: trail.app.bundleID, pid: trail.session.pid, started: started, tolerance: 2000,
                project: 1, in: db)
        }
        #expect(owner == event)
        #expect(
            try store.write { db in
                try ReportStore.reportJoined(to: DecodedTrail(ofSessionA), started: started, tolerance: 2000, project: 2, in: db)
            } == nil)

        // When a trail of session S-W waits in project 3, project 3 fills its waiting room, and project 4 sends one
        let limits = ReportStore.WaitingTrailLimits(maximumCount: 1, maximumBytes: 1 << 20, maximumAge: 86_400_000)
        var ofSessionW = trail
        ofSessionW.session.id = "S-W"
        var waiting = ReportStore.WaitingTrail(
            bundleID: trail.app.bundleID, session: "S-W", pid: 1, started: 0, steps: trail.steps.count,
            trail: String(decoding: DecodedTrail(ofSessionW).canonicalJSON, as: UTF8.self), dictionary: nil, screenPath: nil,
            crashScreen: nil, project: 3)
        let kept3 = try store.write { db in try ReportStore.keepWaiting(waiting, limits: limits, now: 1_000, in: db) }
        var flood = waiting
        flood.session = "S-FLOOD"
        let full3 = try store.write { db in try ReportStore.keepWaiting(flood, limits: limits, now: 1_001, in: db) }
        waiting.project = 4
        let kept4 = try store.write { db in try ReportStore.keepWaiting(waiting, limits: limits, now: 1_002, in: db) }

        // Then project 3's flood leaves project 4 room, and the same session waits once in each project
        #expect(kept3 == .waiting)
        #expect(full3 == .full(count: 1, bytes: Int64(waiting.trail.utf8.count)))
        #expect(kept4 == .waiting)
        #expect(try store.waitingTrailStatus().count == 2)

        // When project 4's crash of session S-W comes
        let crash4 = try store.write { db in
            try IntakeBatch.apply(
                [.reports([crash("W-4", project: 4, session: "S-W", sha256: String(repeating: "d", count: 64))], idDecides: true)], in: db)
        }

        // Then it joins project 4's trail, and project 3's still waits for its own crash
        #expect(crash4 == [.reports([.stored("W-4")], joinedWaiting: ["W-4"])])
        #expect(try store.waitingTrailStatus().count == 1)
        let crash3 = try store.write { db in
            try IntakeBatch.apply(
                [.reports([crash("W-3", project: 3, session: "S-W", sha256: String(repeating: "e", count: 64))], idDecides: true)], in: db)
        }
        #expect(crash3 == [.reports([.stored("W-3")], joinedWaiting: ["W-3"])])
        #expect(try store.waitingTrailStatus().count == 0)

        // When projects 3 and 4 each store a debug file of the same UUID, with other bytes, and project 3 a file it
        // uploaded
        let uuid = "0a0a0a0a-0000-4000-8000-000000000000"
        func debugFile(project: ProjectScope) -> DebugFile {
            DebugFile(
                uuid: uuid, arch: "arm64", name: "App", kind: "dwarf", textVMAddr: 0, size: 1, sha1: "", added: "2026-11-29T00:00:00Z",
                project: project)
        }
        let three = try store.addDebugFile(debugFile(project: 3)) { $0 == 0 ? [3] : nil }
        let four = try store.addDebugFile(debugFile(project: 4)) { $0 == 0 ? [4] : nil }
        let fourAgain = try store.addDebugFile(debugFile(project: 4)) { $0 == 0 ? [5] : nil }
        try store.recordUploadedFile(checksum: "f11e", uuids: [uuid], project: 3)
        var chunks: [ProjectScope: [UInt8]] = [:]
        for project: ProjectScope in [3, 4] {
            try store.forEachDebugFileChunk(uuid: uuid, project: project) { chunks[project, default: []] += $0 }
        }

        // Then each project has its own, the first of each project wins within it, and project 5 has none; only project
        // 3's crash awaiting that image is counted as waiting for a stored debug file
        #expect(three.isNew && four.isNew && !fourAgain.isNew)
        #expect(chunks == [3: [3], 4: [4]])
        #expect(try store.debugFile(uuid: uuid, project: 3)?.sha1 == three.sha1)
        #expect(try store.debugFile(uuid: uuid, project: 4)?.sha1 == four.sha1)
        #expect(try store.debugFile(uuid: uuid, project: 5) == nil)
        #expect(try store.uploadedFile(checksum: "f11e", project: 3)?.map(\.project) == [3])
        #expect(try store.uploadedFile(checksum: "f11e", project: 4) == nil)
        var imaged = crash("IMG-3", project: 3, session: nil, sha256: String(repeating: "f", count: 64), pid: 9)
        imaged.images = [ReportImage(uuid: uuid, name: "App", inApp: true, symbolicated: false)]
        var other = crash("IMG-5", project: 5, session: nil, sha256: String(repeating: "9", count: 64), pid: 9)
        other.images = imaged.images
        _ = try store.write { db in try IntakeBatch.apply([.reports([imaged, other], idDecides: true)], in: db) }
        #expect(try store.reportsAwaitingStoredDebugFiles() == ["IMG-3"])
        #expect(
            try store.missingDebugFiles().filter { $0.uuid == uuid }.map(\.reports) == [1], "project 5's crash still misses its debug file")
    }

    @Test("On SQLite: uploads racing one another never pass a project's chunk quota together")
    func chunkQuotaRaceOnSQLite() throws { try Self.chunkQuotaRace(on: .sqlite) }

    @Test("On PostgreSQL: uploads racing one another never pass a project's chunk quota together", .needsPostgres)
    func chunkQuotaRaceOnPostgres() throws { try Self.chunkQuotaRace(on: .postgres) }

    static func chunkQuotaRace(on kind: StoreKind) throws {
        // Given a project with a quota of 350 bytes, and eight chunks of 100 bytes sent at once
        let folder = try TemporaryFolder("chunk-quota")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try store.addProject(name: "ios")
        let outcomes = LockedOutcomes()

        // When
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let bytes = [UInt8](repeating: UInt8(index), count: 100)
            do {
                let refused = try store.addUploadChunk(
                    sha1: String(format: "%040x", index), bytes: bytes, added: "2026-11-29T00:00:00Z", project: 1, quota: 350)
                if refused != nil { outcomes.fail("refused \(index)") }
            } catch {
                outcomes.fail("error \(index): \(error)")
            }
        }

        // Then three are kept and five refused, never more than the quota
        #expect(outcomes.failures.filter { $0.hasPrefix("error") }.isEmpty, "\(outcomes.failures)")
        #expect(outcomes.failures.count == 5)
        #expect(try store.uploadChunkBytes(project: 1) == 300)
    }

    @Test("On SQLite: the same chunk sent by two projects is each one's: read, counted and forgotten apart")
    func chunksApartOnSQLite() throws { try Self.chunksApart(on: .sqlite) }

    @Test("On PostgreSQL: the same chunk sent by two projects is each one's: read, counted and forgotten apart", .needsPostgres)
    func chunksApartOnPostgres() throws { try Self.chunksApart(on: .postgres) }

    static func chunksApart(on kind: StoreKind) throws {
        // Given a chunk project 1 sent
        let folder = try TemporaryFolder("chunks-apart")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        for name in ["ios", "android"] { _ = try store.addProject(name: name) }
        let bytes = [UInt8](repeating: 7, count: 100)
        let sha1 = String(repeating: "a", count: 40)
        let added = "2026-11-29T00:00:00Z"
        try store.addUploadChunk(sha1: sha1, bytes: bytes, added: added, project: 1, quota: 1_000)

        // Then project 2 has no such chunk: it can neither read it nor assemble with it
        #expect(try store.uploadChunk(sha1: sha1, project: 2) == nil)
        #expect(try store.uploadChunks(among: [sha1], project: 2).isEmpty)
        #expect(try store.uploadChunkSizes(among: [sha1], project: 2).isEmpty)

        // When project 2 sends the same bytes: it keeps its own copy, counted against its own quota
        #expect(try store.addUploadChunk(sha1: sha1, bytes: bytes, added: added, project: 2, quota: 1_000) == nil)
        #expect(try store.uploadChunkBytes(project: 1) == 100)
        #expect(try store.uploadChunkBytes(project: 2) == 100)
        #expect(try store.uploadChunk(sha1: sha1, project: 2) == bytes)

        // When project 1's file is stored and its chunks forgotten: project 2's copy stays
        try store.removeUploadChunks([sha1], project: 1, addedBefore: "2026-01-01T00:00:00Z")
        #expect(try store.uploadChunks(among: [sha1], project: 1).isEmpty)
        #expect(try store.uploadChunks(among: [sha1], project: 2) == [sha1])
    }

    /// Two reports, a waiting trail and a debug file, as a store of the release before projects kept them; `blob` is a byte in the
    /// backend's SQL.
    static func previousRows(blob: String) -> [String] {
        [
            """
            INSERT INTO report (id, format, sha256, frames, signature, trailSource, source, payload, payloadSize)
            VALUES ('BY-SERVE', 'sentry-event', 'aa', '[]', 'sig', 'missing', 'api/2/envelope/0123', x'00', 1)
            """,
            """
            INSERT INTO report (id, format, sha256, frames, signature, trailSource, source, payload, payloadSize)
            VALUES ('BY-FILE', 'sentry-event', 'bb', '[]', 'sig', 'missing', 'crashes/a.json', x'00', 1)
            """,
            """
            INSERT INTO waitingTrail (bundleID, session, pid, started, received, size, steps, trail)
            VALUES ('com.example', 'S-OLD', 1, 0, 0, 2, 0, '{}')
            """,
            """
            INSERT INTO debugFile (uuid, arch, name, kind, textVMAddr, size, sha1, added)
            VALUES ('U-OLD', 'arm64', 'App', 'dwarf', 0, 1, '5ba93c9db0cff93f52b521d7420e43f6eda2784f', '2026-01-01T00:00:00Z')
            """,
            "INSERT INTO debugFileChunk (uuid, seq, data) VALUES ('U-OLD', 0, x'00')",
            "INSERT INTO uploadedFile (checksum, uuid) VALUES ('c0ffee', 'U-OLD')",
        ].map { $0.replacingOccurrences(of: "x'00'", with: blob) }
    }

    /// What a store of the release before projects holds once migrated: each report in its project.
    static func expectMigrated(_ store: ReportStore) throws {
        #expect(try store.record(id: "BY-SERVE")?.project == 2, "a report serve stored names its project in its source")
        #expect(try store.record(id: "BY-FILE")?.project == 1, "every other report goes to the store's first project")
        #expect(try store.waitingTrailStatus().count == 1)
        let project = try store.read { db in try db.value("SELECT project FROM waitingTrail WHERE session = 'S-OLD'", [])?.integer }
        #expect(project == 1)
        // A debug file stored before is every project's, as it was: kept as project 0, found for any project
        #expect(try store.debugFiles().map(\.project) == [.unassigned])
        #expect(try store.debugFile(uuid: "U-OLD", project: 2)?.project == .unassigned)
        #expect(
            try store.read { db in try db.strings("SELECT uuid FROM uploadedFile WHERE project = 0 AND checksum = 'c0ffee'", []) } == [
                "U-OLD"
            ])
        var chunks: [[UInt8]] = []
        try store.forEachDebugFileChunk(uuid: "U-OLD", project: .unassigned) { chunks.append($0) }
        #expect(chunks == [[0]])
    }

    @Test("A SQLite store of the release before projects were kept apart migrates: each report to its project")
    func previousSQLiteRelease() throws {
        // Given a store written by the previous release's migrations (up to v19), with reports and a waiting trail
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("old.sqlite").path
        try SQLiteBackend.migrateForTests(path: path, upTo: "v19: tokens and limits", then: Self.previousRows(blob: "x'00'"))

        // When this version opens it, then each report is in its project
        try Self.expectMigrated(try ReportStore.open(path: path))
    }

    @Test("A PostgreSQL store of the release before projects were kept apart migrates: each report to its project", .needsPostgres)
    func previousPostgresRelease() throws {
        // Given a database of the previous release's migrations (up to v16), with reports, a waiting trail and a debug file
        let url = try TestStores.previousReleaseDatabase(
            upTo: "v16: tokens and limits", then: Self.previousRows(blob: "decode('00', 'hex')"))

        // When this version opens it, then each report is in its project
        try Self.expectMigrated(try TestStores.open(url))
    }
}
