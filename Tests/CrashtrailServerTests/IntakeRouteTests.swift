import CrashtrailEncoding
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CrashtrailServer

/// The intake routes of `crashtrail serve` (SPEC section 14), in process: Sentry's envelope and store endpoints,
/// payloads and trails, keys, limits and refusals.
@Suite("crashtrail serve: intake routes")
struct IntakeRouteTests {
    static let envelope = "reports/sentry-envelope-binary-attachment.envelope"

    @Test("An envelope with a crashtrail.ctr attachment is stored with its trail; the SDK's retry is stored once")
    func envelopeWithAttachment() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let body = try ServerFixture.sample(Self.envelope)
        // The retry's envelope header has another sent_at, as an SDK's retry may.
        let retry = Self.replacing("2026-11-02T08:12:33.349Z", with: "2026-11-02T08:13:40.000Z", in: body)
        try #require(retry != body)

        // When
        let (first, second) = try await fixture.test { client in
            (
                try await client.post("/api/1/envelope/", body, headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/1/envelope/", retry, headers: sentryAuth(ServerFixture.key))
            )
        }

        // Then
        #expect(first.status == .ok)
        #expect(first.text == #"{"id":"4158fa092de937d45265f830777de183"}"#)
        #expect(second.status == .ok)
        #expect(second.text == first.text)
        let records = try fixture.service.store.allRecords()
        #expect(records.count == 1)
        #expect(records.first?.trailSource == .embedded)
        #expect(records.first?.source.hasPrefix("api/1/envelope/") == true)
    }

    @Test("An event comes plain, gzip, zlib deflate or raw deflate; the key from the query or the envelope's dsn")
    func encodingsAndKeyPlaces() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let contexts = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")
        let extra = try ServerFixture.sample("reports/sentry-event-extra-object.json")
        let zlib = contexts.withUnsafeBufferPointer { ZlibStream.compressed($0) }
        let raw = Array(zlib.dropFirst(2).dropLast(4))
        let gzip = Gzip.wrap(extra)
        let dsnEnvelope = Self.replacing(
            #"{"event_id":"#, with: #"{"dsn":"http://\#(ServerFixture.key)@127.0.0.1:9/1","event_id":"#,
            in: try ServerFixture.sample(Self.envelope))

        // When
        let statuses = try await fixture.test { client in
            [
                try await client.post("/api/1/store/", gzip, headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "gzip"]),
                try await client.post("/api/1/store/?sentry_key=\(ServerFixture.key)", zlib, headers: [.contentEncoding: "deflate"]),
                try await client.post("/api/1/store/", raw, headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "deflate"]),
                try await client.post("/api/1/envelope/", dsnEnvelope),
            ].map(\.status)
        }

        // Then
        #expect(statuses == [.ok, .ok, .ok, .ok])
        let records = try fixture.service.store.allRecords()
        #expect(Set(records.map(\.format.rawValue)) == ["sentry-event", "sentry-envelope"])
        #expect(records.count == 3, "the zlib and raw deflate bodies are the same event, stored once")
        #expect(records.allSatisfy { $0.trailSource == .embedded })
    }

    @Test("A body sent br, as Sentry's Python SDK sends it when brotli is installed, is stored; a br bomb is 413 at the limit")
    func brotliBodies() async throws {
        // Given a sample event compressed by Python's brotli module, and 50 MiB of spaces in 93 bytes
        let fixture = try ServerFixture(limits: ServeOptions.Limits(decompressedBody: 256 << 10))
        defer { fixture.remove() }
        let folder = PackageRoot.url.appendingPathComponent("Tests/Fixtures/brotli")
        let event = Array(try Data(contentsOf: folder.appendingPathComponent("sentry-event-contexts-ct1.json.br")))
        let bomb = Array(try Data(contentsOf: folder.appendingPathComponent("bomb-50MiB.br")))
        let plain = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")

        // When
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/store/", event, headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "br"]),
                try await client.post("/api/1/store/", bomb, headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "br"]),
                try await client.post(
                    "/api/1/store/", Array(event.dropLast(9)), headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "br"]),
            ]
        }

        // Then the event is stored with the bytes it was compressed from, the bomb stops at the limit, a cut stream is 400
        #expect(answers.map(\.status) == [.ok, .contentTooLarge, .badRequest])
        #expect(answers[1].detail.contains("inflates to more than 262144 bytes"))
        #expect(answers[2].detail.contains("the br body could not be inflated"))
        let records = try fixture.service.store.allRecords()
        #expect(records.count == 1)
        #expect(try records.first?.rawPayload() == plain)
    }

    @Test("Envelopes of sessions, transactions and client reports are accepted and not stored")
    func itemsWithoutACrash() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let envelope = Array(
            """
            {"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sent_at":"2026-11-26T00:00:00Z"}
            {"type":"session"}
            {"sid":"7c7b6585","status":"ok","errors":0}
            {"type":"client_report"}
            {"timestamp":1764115200,"discarded_events":[]}

            """.utf8)

        // When
        let response = try await fixture.test { client in
            try await client.post("/api/1/envelope/", envelope, headers: sentryAuth(ServerFixture.key))
        }

        // Then
        #expect(response.status == .ok)
        #expect(response.text == #"{"id":"9ec79c33ec9942ab8353589fcb2e04dc"}"#)
        #expect(try fixture.service.store.allRecords().isEmpty)
        #expect(fixture.quarantined.isEmpty)
    }

    @Test("No key or an unknown key is 401, another project's key 403, each naming the problem")
    func keys() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let body = try ServerFixture.sample(Self.envelope)

        // When
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/envelope/", body),
                try await client.post("/api/1/envelope/", body, headers: sentryAuth("not-a-key")),
                try await client.post("/api/1/envelope/", body, headers: sentryAuth(ServerFixture.otherKey)),
                try await client.post("/api/1/reports", body, headers: bearer(ServerFixture.otherKey)),
            ]
        }

        // Then
        #expect(answers.map(\.status) == [.unauthorized, .unauthorized, .forbidden, .forbidden])
        #expect(answers[0].detail.contains("no project key"))
        #expect(answers[1].detail.contains("is not a key of any project"))
        #expect(answers[2].detail.contains("belongs to project 2 (android), not to project 1"))
        #expect(answers.allSatisfy { $0.headers[.contentType] == "application/json" })
        #expect(try fixture.service.store.allRecords().isEmpty)
    }

    @Test("serve groups by the grouping rules of the event's project, else the store's")
    func groupingRulesPerProject() async throws {
        // Given rules for project 1 and for the store, none for project 2
        let fixture = try ServerFixture { service in
            _ = try service.setGroupingRules("type:* -> project-one, {{ type }}", file: nil, project: "1")
            _ = try service.setGroupingRules("type:* -> store-wide", file: nil, project: nil)
        }
        defer { fixture.remove() }
        let contexts = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")
        let extra = try ServerFixture.sample("reports/sentry-event-extra-object.json")

        // When
        let statuses = try await fixture.test { client in
            [
                try await client.post("/api/1/store/", contexts, headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/2/store/", extra, headers: sentryAuth(ServerFixture.otherKey)),
            ].map(\.status)
        }

        // Then
        #expect(statuses == [.ok, .ok])
        let records = try fixture.service.store.allRecords().sorted { $0.source < $1.source }
        #expect(records.map { $0.source.prefix(6) } == ["api/1/", "api/2/"])
        #expect(records.first?.signature.hasPrefix("project-one | ") == true, "\(records.map(\.signature))")
        #expect(records.last?.signature == "store-wide")
    }

    @Test("Bodies over Sentry's limits are 413: an event item, a declared length, a decompression bomb stopped at the limit")
    func limits() async throws {
        // Given limits small enough to pass in a test
        let fixture = try ServerFixture(
            limits: ServeOptions.Limits(eventItem: 4_096, compressedBody: 64 << 10, decompressedBody: 256 << 10))
        defer { fixture.remove() }
        let envelope = try ServerFixture.sample(Self.envelope)
        let bomb = Gzip.wrap([UInt8](repeating: 0x20, count: 50 << 20))
        let overDeclared = [UInt8](repeating: 0x7B, count: 300 << 10)

        // When
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/envelope/", envelope, headers: sentryAuth(ServerFixture.key)),
                try await client.post(
                    "/api/1/store/", bomb, headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "gzip"]),
                try await client.post(
                    "/api/1/reports", overDeclared, headers: bearer(ServerFixture.key) + [.contentLength: String(overDeclared.count)]),
            ]
        }

        // Then
        #expect(answers.map(\.status) == [.contentTooLarge, .contentTooLarge, .contentTooLarge])
        #expect(answers[0].detail.contains("envelope item 0 (event) is 5334 bytes, over Sentry's limit of 4096 bytes"))
        #expect(answers[1].detail.contains("inflates to more than 4096 bytes"))
        #expect(answers[2].detail.contains("over the limit of 262144 bytes"))
        #expect(bomb.count < 64 << 10, "the bomb is small compressed: \(bomb.count) bytes")
    }

    @Test("A payload that cannot be read is 400, named, and kept in the quarantine with its reason")
    func refusals() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let truncated = try ServerFixture.sample("reports/malformed-truncated-kscrash.json")

        // When
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/reports", truncated, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/envelope/", Array("not an envelope\n".utf8), headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/1/store/", [1, 2, 3], headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "gzip"]),
                try await client.post("/api/1/store/", [1, 2, 3], headers: sentryAuth(ServerFixture.key) + [.contentEncoding: "br"]),
            ]
        }

        // Then
        #expect(answers.map(\.status) == [.badRequest, .badRequest, .badRequest, .badRequest])
        #expect(answers[0].detail.contains("(invalid-json)"))
        #expect(answers[1].detail.contains("(invalid-envelope)"))
        #expect(answers[2].detail.contains("could not be inflated"))
        #expect(answers[3].detail.contains("the br body could not be inflated"))
        let kept = fixture.quarantined
        #expect(kept.count == 4, "two payloads, each with its reason: \(kept)")
        #expect(kept.contains { $0.contains("api_1_reports") && $0.hasSuffix(".reason.txt") })
        #expect(try fixture.service.store.allRecords().isEmpty)
    }

    @Test("A trail before its crash waits (202) and joins it when it comes; sending it again answers the same report")
    func reportsAndTrails() async throws {
        // Given
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let ips = try ServerFixture.sample("reports/ips-joined-by-pid.ips")
        let trail = try ServerFixture.sample("trails/ips-joined-by-pid.ctr")

        // When
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/trails", trail, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/reports", ips, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/trails", trail, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/trails", trail, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/trails", Array("garbage".utf8), headers: bearer(ServerFixture.key)),
            ]
        }

        // Then
        #expect(answers.map(\.status) == [.accepted, .ok, .ok, .ok, .badRequest])
        #expect(answers[0].text == #"{"ids":[],"waiting":true}"#)
        let id = "FB721707-282C-40DD-C637-DB52790E7532"
        #expect(answers[1].text == #"{"ids":["\#(id)"]}"#)
        #expect(answers[2].text == answers[1].text)
        #expect(answers[3].text == answers[1].text)
        #expect(answers[4].detail.contains("(undecodable-trail)"))
        #expect(try fixture.service.store.record(id: id)?.trailSource == .joined)
    }

    @Test("A trail posted before its crash waits; the Sentry event carrying its session joins it; /metrics counts; past the bound, 429")
    func trailBeforeItsCrashBySession() async throws {
        // Given a service that keeps one waiting trail, two trails of two sessions and the crash of the first
        let fixture = try ServerFixture(maximumWaitingTrails: 1)
        defer { fixture.remove() }
        let readToken = fixture.readToken
        @Sendable func trail(_ session: String) -> [UInt8] {
            Array(
                """
                {"version": 1, "app": {"bundleID": "com.example.piratebay", "version": "3.1.1", "build": "418"},
                 "session": {"id": "\(session)", "started": "2026-11-02T14:45:05Z", "pid": 31922},
                 "dropped": 0, "steps": [{"t": 1258, "op": "push", "to": {"item": {"id": "L-65586"}}}]}
                """.utf8)
        }
        let url = ServerFixture.samples.appendingPathComponent("reports/sentry-event-no-trail.json")
        var event = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        event["tags"] = [["crashtrail.session", "SESSION-A"]]
        let crash = Array(try JSONSerialization.data(withJSONObject: event))

        // When
        let (answers, metrics) = try await fixture.test { client in
            let answers = [
                try await client.post("/api/1/trails", trail("SESSION-A"), headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/trails", trail("SESSION-B"), headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/store/", crash, headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/1/trails", trail("SESSION-B"), headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/trails", trail("SESSION-A"), headers: bearer(ServerFixture.key)),
            ]
            return (answers, try await client.execute(uri: "/metrics", method: .get, headers: bearer(readToken)))
        }

        // Then the first waits, the second finds the bound full (429, Retry-After), the crash joins the first, which
        // frees room for the second; the first sent again answers its crash
        #expect(answers.map(\.status) == [.accepted, .tooManyRequests, .ok, .accepted, .ok])
        #expect(answers[1].headers[.retryAfter] == "3600")
        #expect(answers[1].detail.contains("--trail-wait-limit"))
        let id = "7638a7df24621977d80b626d99bdf52e"
        let record = try #require(try fixture.service.store.allRecords().first)
        #expect(record.trailSource == .joined)
        #expect(answers[4].text == #"{"ids":["\#(record.id)"]}"#)
        #expect(answers[2].text.contains(id))
        let lines = Set(metrics.text.split(separator: "\n").map(String.init))
        #expect(lines.contains("crashtrail_trails_waiting 1.0"))
        #expect(lines.contains("crashtrail_trails_kept_waiting_total 2"))
        #expect(lines.contains("crashtrail_trails_refused_waiting_full_total 1"))
        #expect(lines.contains("crashtrail_trails_joined_after_waiting_total 1"))
    }

    @Test("Projects are apart: a trail sent with another project's key joins none of its crashes, and an event ID is stored once in each")
    func projectsApart() async throws {
        // Given a service with projects 1 and 2, a crash of session SESSION-A and its trail
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let trail = Array(
            """
            {"version": 1, "app": {"bundleID": "com.example.piratebay", "version": "3.1.1", "build": "418"},
             "session": {"id": "SESSION-A", "started": "2026-11-02T14:45:05Z", "pid": 31922},
             "dropped": 0, "steps": [{"t": 1258, "op": "push", "to": {"item": {"id": "L-65586"}}}]}
            """.utf8)
        let url = ServerFixture.samples.appendingPathComponent("reports/sentry-event-no-trail.json")
        var event = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        event["tags"] = [["crashtrail.session", "SESSION-A"]]
        let crash = Array(try JSONSerialization.data(withJSONObject: event))

        // When project 1 stores the crash, project 2's key sends the trail of its session, project 2 sends the same
        // event, then project 1 sends the trail and the crash again
        let answers = try await fixture.test { client in
            [
                try await client.post("/api/1/store/", crash, headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/2/trails", trail, headers: bearer(ServerFixture.otherKey)),
                try await client.post("/api/2/store/", crash, headers: sentryAuth(ServerFixture.otherKey)),
                try await client.post("/api/1/trails", trail, headers: bearer(ServerFixture.key)),
                try await client.post("/api/1/store/", crash, headers: sentryAuth(ServerFixture.key)),
            ]
        }

        // Then project 2's trail waits instead of joining project 1's crash, and joins project 2's own crash; project
        // 1's trail joins project 1's; each project keeps the event once
        #expect(answers.map(\.status) == [.ok, .accepted, .ok, .ok, .ok])
        let records = try fixture.service.store.allRecords().sorted { $0.project < $1.project }
        #expect(records.map(\.project) == [1, 2])
        #expect(records.allSatisfy { $0.trailSource == .joined })
        #expect(records[1].id == records[0].id + "~p2")
        #expect(answers[3].text == #"{"ids":["\#(records[0].id)"]}"#)
        #expect(try fixture.service.store.waitingTrailStatus().count == 0)
    }

    @Test("With the backlog full, a request is answered 429 with Retry-After and X-Sentry-Rate-Limits, and the one waiting is stored")
    func backlogFull() async throws {
        // A loaded machine can take longer between the two requests than the store's busy timeout (10 s), which fails
        // the first commit and empties the backlog: that run says nothing of the backlog, and is made again.
        for attempt in 1...3 {
            let (waited, refused, records) = try await Self.backlogFullRun()
            if waited.status == .serviceUnavailable, attempt < 3 { continue }
            #expect(refused.status == .tooManyRequests, "\(refused.detail)")
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.headers[.sentryRateLimits] == "1::organization")
            #expect(refused.headers[values: .retryAfter] == ["1"], "the rate-limit header is its own field, not a second Retry-After")
            #expect(HTTPField.Name.sentryRateLimits.canonicalName == "x-sentry-rate-limits")
            #expect(refused.detail.contains("backlog is full"))
            #expect(waited.status == .ok, "\(waited.detail)")
            #expect(records == 1)
            return
        }
    }

    @Test("Refusals that share a status say which limit refused: rate, share, backlog or disk")
    func refusalCodes() throws {
        // Given an admission of one event a minute, a backlog of two and a disk floor no disk has
        let admission = IntakeAdmission(
            trust: ServeOptions.Trust(eventsPerMinute: 1, minimumFreeDisk: .max), backlog: 2, folders: ["."],
            metrics: ServerMetrics(), time: .fixed(milliseconds: 1_700_000_000_000))
        let project = Project(id: 1, name: "app", key: "k")

        // When each limit is passed
        try admission.admit(.events, project)
        let rate = #expect(throws: RequestError.self) { try admission.admit(.events, project) }
        try admission.reserve(1, for: 1, among: 2)
        let share = #expect(throws: RequestError.self) { try admission.reserve(1, for: 1, among: 2) }
        let disk = #expect(throws: RequestError.self) { try admission.checkRoom() }

        // Then the two 429s and the backlog's differ by their code, not only by their text
        #expect(rate?.status == .tooManyRequests && rate?.code == .rateLimit)
        #expect(share?.status == .tooManyRequests && share?.code == .backlogShare)
        #expect(admission.backlogFull(waiting: 2).code == .backlogFull)
        #expect(disk?.status == .serviceUnavailable && disk?.code == .diskFloor)
        #expect(RequestError.badRequest("x").code.name == "400")
    }

    /// One run of ``backlogFull()``: the answers to the report that waits and to the one refused, and the reports stored.
    static func backlogFullRun() async throws -> (waited: TestResponse, refused: TestResponse, records: Int) {
        // Given a service whose backlog holds one report, and a store another connection keeps locked
        let fixture = try ServerFixture(backlog: 1)
        defer { fixture.remove() }
        let lock = try DatabaseQueue(path: fixture.folder.url.appendingPathComponent("store.sqlite").path)
        let first = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")
        let second = try ServerFixture.sample("reports/sentry-event-extra-object.json")
        let committer = fixture.server.routes.committer

        // When
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? lock.inTransaction(.exclusive) { _ in
                locked.signal()
                release.wait()
                return .commit
            }
        }
        locked.wait()
        let (waited, refused) = try await fixture.test { client in
            async let waiting = client.post("/api/1/store/", first, headers: sentryAuth(ServerFixture.key))
            while committer.backlog == 0 { try await Task.sleep(for: .milliseconds(5)) }
            // From the other project: the first project's share is full too, and this is the whole backlog's refusal.
            let refused = try await client.post("/api/2/store/", second, headers: sentryAuth(ServerFixture.otherKey))
            release.signal()
            return (try await waiting, refused)
        }
        return (waited, refused, try fixture.service.store.allRecords().count)
    }
}

extension IntakeRouteTests {
    @Test("A project that holds its share of the backlog is answered 429; another project's report still gets in and is stored")
    func backlogSharePerProject() async throws {
        // Given a backlog of two reports shared by two projects, and project 1 holding its share (one report waiting)
        let fixture = try ServerFixture(backlog: 2)
        defer { fixture.remove() }
        let first = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")
        let second = try ServerFixture.sample("reports/sentry-event-extra-object.json")
        let shares = fixture.server.routes.admission.shares
        #expect(shares.share(among: 2) == 1)
        #expect(shares.reserve(1, for: 1, among: 2))
        defer { shares.release(1, for: 1) }

        // When project 1 sends another report, and project 2 one
        let (flooded, other) = try await fixture.test { client in
            (
                try await client.post("/api/1/store/", first, headers: sentryAuth(ServerFixture.key)),
                try await client.post("/api/2/store/", second, headers: sentryAuth(ServerFixture.otherKey))
            )
        }

        // Then
        #expect(flooded.status == .tooManyRequests)
        #expect(flooded.headers[.retryAfter] == "1")
        #expect(flooded.headers[.sentryRateLimits] == "1::project")
        #expect(flooded.detail.contains("its share of the service's backlog (1 of 2)"), "\(flooded.detail)")
        #expect(other.status == .ok, "one project's flood never refuses another's report")
        #expect(try fixture.service.store.allRecords().count == 1)
        #expect(shares.held == [1: 1], "what a request reserved is released when it is answered")
    }

    /// `bytes` with the first occurrence of `old` replaced, byte for byte (the envelopes hold binary attachments).
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        let old = Array(old.utf8)
        guard let start = (0...(bytes.count - old.count)).first(where: { bytes[$0..<($0 + old.count)].elementsEqual(old) }) else {
            return bytes
        }
        return Array(bytes[..<start]) + Array(new.utf8) + Array(bytes[(start + old.count)...])
    }
}

/// gzip (RFC 1952) around zlib's deflate, for test bodies.
enum Gzip {
    static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        let zlib = bytes.withUnsafeBufferPointer { ZlibStream.compressed($0, level: 9) }
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out += zlib.dropFirst(2).dropLast(4)
        let crc = CRC32.checksum(bytes)
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for value in [crc, size] { out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return out
    }
}
