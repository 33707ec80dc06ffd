import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

/// Joining by session, not by clock, and in either order (SPEC section 18): a crash that carries the recorder's
/// session ID joins that session's trail however long ago its process started, and a trail that comes first waits
/// for its crash, across ingest runs.
@Suite struct SessionJoinTests {
    static let session = "6B1C2D3E-0000-4000-8000-00000000C0DE"
    static let started = "2026-11-02T14:45:05Z"
    static let pid: Int64 = 42167

    /// A trail of `session` started at `started`, as a `.json` trail file.
    static func trailJSON(session: String = session, started: String = started, steps: Int = 1) -> String {
        let pushes = (0..<steps).map { #"{"t": \#(1000 * ($0 + 1)), "op": "push", "to": {"item": {"id": "L-\#($0)"}}}"# }
        return """
            {"version": 1, "app": {"bundleID": "com.example.piratebay", "version": "3.3.0", "build": "418"},
             "session": {"id": "\(session)", "started": "\(started)", "pid": \(pid)},
             "dropped": 0, "steps": [\(pushes.joined(separator: ", "))]}
            """
    }

    /// The sample KSCrash report without its embedded trail, launched at `launched`, carrying `session` when given.
    static func kscrash(id: String, launched: String, session: String?) throws -> String {
        let url = TestFiles.samples.appendingPathComponent("reports/kscrash-user-ct1.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var report = try #require(object["report"] as? [String: Any])
        report["id"] = id
        object["report"] = report
        var system = try #require(object["system"] as? [String: Any])
        system["app_start_time"] = launched
        system["process_id"] = pid
        object["system"] = system
        object["user"] = session.map { ["crashtrail_session": $0] } ?? [:]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private func ingest(_ files: [String: String], into store: ReportStore, trails: [String: String] = [:]) throws -> IngestSummary {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try TestFiles.write(text, to: folder.appendingPathComponent("reports/\(name)")) }
        for (name, text) in trails { try TestFiles.write(text, to: folder.appendingPathComponent("trails/\(name)")) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
        return try TestFiles.ingest(
            [folder.appendingPathComponent("reports").path], store: store, folder: folder,
            trails: trails.isEmpty ? nil : folder.appendingPathComponent("trails").path)
    }

    private func waitingCount(_ store: ReportStore) throws -> Int {
        try store.waitingTrailStatus().count
    }

    @Test("A crash carrying the session joins its trail across a 6-hour gap between launch and session.started")
    func joinsBySessionAcrossAPrewarmGap() throws {
        // Given a prewarmed process: launched at 08:45, the session (and its trail) started at 14:45
        let store = try TestFiles.memoryStore()
        let withSession = try Self.kscrash(id: "CRASH-SESSION", launched: "2026-11-02T08:45:05Z", session: Self.session)
        let without = try Self.kscrash(id: "CRASH-NO-SESSION", launched: "2026-11-02T08:45:05Z", session: nil)

        // When both crashes are ingested, then the trail
        _ = try ingest(["a.json": withSession, "b.json": without], into: store)
        let summary = try ingest([:], into: store, trails: ["t.json": Self.trailJSON()])

        // Then the trail joins the crash of its session, and only it
        #expect(summary.trailsJoined == 1)
        #expect(try store.record(id: "CRASH-SESSION")?.trailSource == .joined)
        #expect(try store.record(id: "CRASH-NO-SESSION")?.trailSource == .missing)
    }

    @Test("A crash carrying another session is not joined by pid and launch time")
    func anotherSessionIsNotJoinedByClock() throws {
        // Given a crash of the same app and pid, launched when the trail's session started, but of another session
        let store = try TestFiles.memoryStore()
        let other = try Self.kscrash(id: "CRASH-OTHER", launched: Self.started, session: "ANOTHER-SESSION")
        _ = try ingest(["a.json": other], into: store)

        // When the trail comes
        let summary = try ingest([:], into: store, trails: ["t.json": Self.trailJSON()])

        // Then it joins nothing and waits
        #expect(summary.trailsJoined == 0)
        #expect(summary.trailsWaiting == 1)
        #expect(try store.record(id: "CRASH-OTHER")?.trailSource == .missing)
    }

    @Test("A trail ingested before its crash waits, and joins it in a later run; nothing is joined twice")
    func trailFirstAcrossIngestRuns() throws {
        // Given a run that ingests only the trail: no crash awaits it
        let store = try TestFiles.memoryStore()
        let first = try ingest([:], into: store, trails: ["t.json": Self.trailJSON()])
        #expect(first.trailsJoined == 0)
        #expect(first.trailsWaiting == 1)
        #expect(try waitingCount(store) == 1)

        // When a later run ingests its crash (carrying the session, launched hours before the session started)
        let crash = try Self.kscrash(id: "CRASH-LATE", launched: "2026-11-02T08:45:05Z", session: Self.session)
        let second = try ingest(["a.json": crash], into: store)

        // Then the crash is stored with the trail, counted as joined, and the trail waits no more
        #expect(second.stored == 1)
        #expect(second.trailsJoined == 1)
        #expect(second.trailsMissing == 0)
        let record = try #require(try store.record(id: "CRASH-LATE"))
        #expect(record.trailSource == .joined)
        #expect(record.trailSteps == 1)
        #expect(try waitingCount(store) == 0)

        // And the same trail ingested again joins nothing and does not wait
        let third = try ingest([:], into: store, trails: ["t.json": Self.trailJSON()])
        #expect(third.trailsJoined == 0)
        #expect(third.trailsWaiting == 0)
        #expect(try waitingCount(store) == 0)
    }

    @Test("A waiting trail without a session match joins a crash of its app and pid launched within the tolerance")
    func waitingTrailJoinsByClockFallback() throws {
        // Given a waiting trail
        let store = try TestFiles.memoryStore()
        _ = try ingest([:], into: store, trails: ["t.json": Self.trailJSON()])

        // When a crash carrying no session, launched 1 s after the session started, is ingested
        let crash = try Self.kscrash(id: "CRASH-CLOCK", launched: "2026-11-02T14:45:06Z", session: nil)
        let summary = try ingest(["a.json": crash], into: store)

        // Then it joins the trail
        #expect(summary.trailsJoined == 1)
        #expect(try store.record(id: "CRASH-CLOCK")?.trailSource == .joined)
        #expect(try waitingCount(store) == 0)
    }

    @Test("Waiting trails are bounded in number and bytes and expire; a longer trail of the same session replaces one")
    func waitingTrailsAreBounded() throws {
        // Given a bound of one trail
        let store = try TestFiles.memoryStore()
        let limits = ReportStore.WaitingTrailLimits(maximumCount: 1, maximumBytes: 1 << 20, maximumAge: 1000)
        func waiting(_ session: String, steps: Int) -> ReportStore.WaitingTrail {
            ReportStore.WaitingTrail(
                bundleID: "com.example.piratebay", session: session, pid: Self.pid, started: 0, steps: steps,
                trail: String(repeating: "x", count: 10 * steps), dictionary: nil, screenPath: nil, crashScreen: nil)
        }

        // When
        let outcomes = try store.write { db in
            [
                try ReportStore.keepWaiting(waiting("A", steps: 1), limits: limits, now: 10_000, in: db),
                try ReportStore.keepWaiting(waiting("B", steps: 1), limits: limits, now: 10_001, in: db),
                try ReportStore.keepWaiting(waiting("A", steps: 3), limits: limits, now: 10_002, in: db),
                try ReportStore.keepWaiting(waiting("A", steps: 2), limits: limits, now: 10_003, in: db),
                try ReportStore.keepWaiting(waiting("B", steps: 1), limits: limits, now: 20_000, in: db),
            ]
        }

        // Then a second session is refused while one waits; the same session's longer trail replaces it, a shorter
        // one does not; once A expires, B is kept
        #expect(outcomes == [.waiting, .full(count: 1, bytes: 10), .waiting, .waiting, .waiting])
        let rows = try store.sqliteWriter.read { db in try Row.fetchAll(db, sql: "SELECT session, steps FROM waitingTrail") }
        #expect(rows.map { $0["session"] as String } == ["B"])
        let bytes = ReportStore.WaitingTrailLimits(maximumCount: 10, maximumBytes: 15, maximumAge: 1000)
        let byBytes = try store.write { db in try ReportStore.keepWaiting(waiting("C", steps: 1), limits: bytes, now: 20_001, in: db) }
        #expect(byBytes == .full(count: 1, bytes: 10))
    }
}

/// Where each crash reporter carries the session ID (SPEC section 18), read from each format.
@Suite struct SessionCarrierTests {
    /// The session ID of the report `text` is stored as.
    private func sessionID(_ text: String) throws -> String? {
        let processor = PayloadProcessor(decoder: try TestFiles.codec())
        let (outcomes, _) = Array(text.utf8).withUnsafeBufferPointer { processor.process($0, source: "test") }
        guard case .record(let record)? = outcomes.first else {
            Issue.record("not stored: \(outcomes)")
            return nil
        }
        return record.sessionID
    }

    private func sentryEvent(_ change: (inout [String: Any]) -> Void) throws -> String {
        let url = TestFiles.samples.appendingPathComponent("reports/sentry-event-no-trail.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        change(&object)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("Sentry: the tag as an object or as a list of pairs, and the crashtrail context")
    func sentry() throws {
        let tagObject = try sentryEvent { $0["tags"] = ["crashtrail.session": "S-1", "other": "x"] }
        let tagPairs = try sentryEvent { $0["tags"] = [["other", "x"], ["crashtrail.session", "S-2"]] }
        let context = try sentryEvent { event in
            var contexts = event["contexts"] as? [String: Any] ?? [:]
            contexts["crashtrail"] = ["session": "S-3"]
            event["contexts"] = contexts
        }
        let none = try sentryEvent { _ in }
        #expect(try sessionID(tagObject) == "S-1")
        #expect(try sessionID(tagPairs) == "S-2")
        #expect(try sessionID(context) == "S-3")
        #expect(try sessionID(none) == nil)
    }

    @Test("KSCrash: user.crashtrail_session; an empty or overlong value is no session")
    func kscrash() throws {
        #expect(try sessionID(SessionJoinTests.kscrash(id: "K1", launched: "2026-11-02T08:45:05Z", session: "S-4")) == "S-4")
        #expect(try sessionID(SessionJoinTests.kscrash(id: "K2", launched: "2026-11-02T08:45:05Z", session: " ")) == nil)
        let long = String(repeating: "a", count: 129)
        #expect(try sessionID(SessionJoinTests.kscrash(id: "K3", launched: "2026-11-02T08:45:05Z", session: long)) == nil)
    }

    @Test("Crashlytics: the custom key crashtrail.session, apart from the trail's split keys")
    func crashlytics() throws {
        let url = TestFiles.samples.appendingPathComponent("reports/crashlytics-export.ndjson")
        let line = try #require(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").first)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        var keys = object["custom_keys"] as? [[String: Any]] ?? []
        keys.append(["key": "crashtrail.session", "value": "S-5"])
        object["custom_keys"] = keys
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try sessionID(text) == "S-5")
    }
}
