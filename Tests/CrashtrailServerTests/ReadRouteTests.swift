import CrashtrailCore
import CrashtrailService
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CrashtrailServer

/// The read side of `crashtrail serve`, live: the triage pages and the JSON of list, show, replay and paths, behind
/// the read token; `/health` and `/metrics`.
@Suite("crashtrail serve: read routes")
struct ReadRouteTests {
    /// Posts the sample envelope, event and .ips with its trail.
    static func fill(_ client: any TestClientProtocol) async throws {
        for (path, uri) in [
            ("reports/sentry-envelope-binary-attachment.envelope", "/api/1/envelope/"),
            ("reports/sentry-event-contexts-ct1.json", "/api/1/store/"), ("reports/ips-joined-by-pid.ips", "/api/1/reports"),
            ("trails/ips-joined-by-pid.ctr", "/api/1/trails"),
        ] {
            let response = try await client.post(uri, try ServerFixture.sample(path), headers: bearer(ServerFixture.key))
            try #require(response.status == .ok, "\(path): \(response.text)")
        }
    }

    @Test("The JSON answers are the commands' --format json documents, from the store as it is now")
    func json() async throws {
        // Given
        let fixture = try ServerFixture(publicRead: true)
        defer { fixture.remove() }

        // When
        let answers = try await fixture.test { client in
            try await Self.fill(client)
            var answers: [String: TestResponse] = [:]
            // The group of two reports, by its ID
            let groups = try JSONParser.parse(Array(try await client.execute(uri: "/api/0/groups", method: .get).text.utf8))
            let pair = groups.arrayValue?.first { $0["count"]?.intValue == 2 }?["id"]?.stringValue ?? "none"
            answers["pair"] = try await client.execute(uri: "/api/0/show/\(pair)", method: .get)
            for uri in [
                "/api/0/groups", "/api/0/reports?limit=2", "/api/0/replay/4158fa09",
                "/api/0/paths?screens=2", "/api/0/show/nothing-like-this", "/api/0/reports?limit=0",
            ] {
                answers[uri] = try await client.execute(uri: uri, method: .get)
            }
            return answers
        }

        // Then each equals what the service's operation gives the command line
        let service = fixture.service
        #expect(answers["/api/0/groups"]?.text == CanonicalJSON.string(of: .array(try service.groups().map(\.jsonValue))))
        #expect(
            answers["/api/0/reports?limit=2"]?.text
                == CanonicalJSON.string(of: .array(try service.reports(limit: 2).map(ListingText.jsonValue(ofReport:)))))
        let group = try JSONParser.parse(Array(try #require(answers["pair"]).text.utf8))
        #expect(group["count"]?.intValue == 2)
        let replay = try JSONParser.parse(Array(try #require(answers["/api/0/replay/4158fa09"]).text.utf8))
        #expect(replay["report"]?.stringValue == "4158fa092de937d45265f830777de183")
        #expect(answers["/api/0/paths?screens=2"]?.text.hasPrefix(#"[{"count":1,"screens":["#) == true)
        #expect(answers["/api/0/show/nothing-like-this"]?.status == .notFound)
        #expect(answers["/api/0/reports?limit=0"]?.status == .badRequest)
    }

    @Test("The triage pages are rendered on request and link to each other; a name that is no page is 404")
    func pages() async throws {
        // Given
        let fixture = try ServerFixture(publicRead: true)
        defer { fixture.remove() }

        // When
        let (index, group, report, missing) = try await fixture.test { client in
            try await Self.fill(client)
            let index = try await client.execute(uri: "/", method: .get)
            let groupPath = try #require(index.text.firstMatch(of: /groups\/[A-Za-z0-9-]+\.html/)).output
            let group = try await client.execute(uri: "/\(groupPath)", method: .get)
            let reportPath = try #require(group.text.firstMatch(of: /reports\/[A-Za-z0-9-]+\.html/)).output
            let report = try await client.execute(uri: "/\(reportPath)", method: .get)
            let missing = try await client.execute(uri: "/reports/none-0000000000000000.html", method: .get)
            return (index, group, report, missing)
        }

        // Then
        #expect(index.status == .ok)
        #expect(index.headers[.contentType] == "text/html; charset=utf-8")
        #expect(index.text.contains("<title>Crashes</title>"))
        #expect(group.status == .ok)
        #expect(group.text.contains("Crash group"))
        #expect(report.status == .ok)
        #expect(report.text.contains("../groups/"))
        #expect(missing.status == .notFound)
    }

    @Test("Reads are closed by default: a read token (bearer or basic), or the operator's, opens them; a DSN key does not")
    func readToken() async throws {
        // Given
        var projectToken = ""
        let fixture = try ServerFixture(readToken: "s3cret") { service in
            projectToken = try service.store.addToken(project: "ios", scopes: [.read], created: 0).value
        }
        defer { fixture.remove() }
        let basic = "Basic " + Data("anyone:s3cret".utf8).base64EncodedString()
        let stored = fixture.readToken
        let storedBasic = "Basic " + Data("me:\(stored)".utf8).base64EncodedString()
        let onlyProject = projectToken
        let uploadOnly = fixture.uploadToken

        // When
        let answers = try await fixture.test { client in
            try await Self.fill(client)
            return [
                try await client.execute(uri: "/api/0/groups", method: .get),
                try await client.execute(uri: "/", method: .get, headers: [.authorization: "Bearer wrong"]),
                try await client.execute(uri: "/api/0/groups", method: .get, headers: [.authorization: "Bearer s3cret"]),
                try await client.execute(uri: "/", method: .get, headers: [.authorization: basic]),
                try await client.execute(uri: "/health", method: .get),
                try await client.execute(uri: "/api/0/groups", method: .get, headers: bearer(stored)),
                try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: storedBasic]),
                try await client.execute(uri: "/metrics", method: .get),
                try await client.execute(uri: "/api/0/groups", method: .get, headers: bearer(ServerFixture.key)),
                try await client.execute(uri: "/api/0/groups", method: .get, headers: bearer(uploadOnly)),
                // A project's read token while the service has two projects: its own project's crashes, not another's,
                // and not the metrics of the whole service.
                try await client.execute(uri: "/api/0/groups", method: .get, headers: bearer(onlyProject)),
                try await client.execute(uri: "/api/0/groups?project=android", method: .get, headers: bearer(onlyProject)),
                try await client.execute(uri: "/metrics", method: .get, headers: bearer(onlyProject)),
                // A project that does not exist, named with a good token and with none
                try await client.execute(uri: "/api/0/groups?project=nope", method: .get, headers: bearer(stored)),
                try await client.execute(uri: "/api/0/groups?project=nope", method: .get),
            ]
        }

        // Then
        #expect(
            answers.map(\.status)
                == [
                    .unauthorized, .unauthorized, .ok, .ok, .ok, .ok, .ok, .unauthorized, .forbidden, .forbidden, .ok, .forbidden,
                    .forbidden, .notFound, .unauthorized,
                ])
        #expect(answers[0].headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
        #expect(answers[0].detail.contains("read scope"))
        #expect(answers[8].detail.contains("a DSN key only sends reports"))
        #expect(answers[9].detail.contains("not read"))
        #expect(answers[10].text == answers[5].text, "the samples are all project 1's")
        #expect(answers[11].detail.contains("reads project 1 only"))
        #expect(answers[12].detail.contains("opens project 1 only"))
        #expect(answers[14].detail.contains("read scope"), "a stranger learns nothing of which projects exist")
        #expect(!answers.contains { $0.text.contains(stored) || $0.text.contains("s3cret") }, "no answer names a token")
    }

    @Test("A project's read token shows its project's crashes only; the operator names one project with ?project=")
    func projectsApart() async throws {
        // Given the samples in project 1 (ios), and one of them sent to project 2 (android) too, with a token of each
        var tokens: [String] = []
        let fixture = try ServerFixture(readToken: "operator-s3cret-token") { service in
            tokens = [
                try service.store.addToken(project: "ios", scopes: [.read], created: 0).value,
                try service.store.addToken(project: "android", scopes: [.read], created: 0).value,
            ]
            // A third project, revoked, with a read token made before
            _ = try service.store.addProject(name: "watch")
            tokens.append(try service.store.addToken(project: "watch", scopes: [.read], created: 0).value)
            _ = try service.store.revokeProject("watch")
        }
        defer { fixture.remove() }
        let (ios, android, watch, operatorToken) = (tokens[0], tokens[1], tokens[2], "operator-s3cret-token")

        // When each reads the groups, the reports, a report of the other project and the pages
        let answers = try await fixture.test { client in
            try await Self.fill(client)
            let event = try ServerFixture.sample("reports/sentry-event-contexts-ct1.json")
            let sent = try await client.post("/api/2/store/", event, headers: bearer(ServerFixture.otherKey))
            try #require(sent.status == .ok, "\(sent.text)")
            var answers: [String: TestResponse] = [:]
            for (name, token) in [("ios", ios), ("android", android), ("operator", operatorToken)] {
                for uri in ["/api/0/groups", "/api/0/reports", "/api/0/show/4158fa09", "/api/0/replay/4158fa09", "/", "/api/0/paths"] {
                    answers["\(name) \(uri)"] = try await client.execute(uri: uri, method: .get, headers: bearer(token))
                }
            }
            for uri in [
                "/api/0/groups?project=android", "/api/0/groups?project=1", "/api/0/reports?project=2", "/api/0/groups?project=watch",
            ] {
                answers["operator \(uri)"] = try await client.execute(uri: uri, method: .get, headers: bearer(operatorToken))
            }
            answers["watch"] = try await client.execute(uri: "/api/0/groups", method: .get, headers: bearer(watch))
            return answers
        }

        // Then project 2 sees its one crash: one group of one report, and none of project 1's reports
        func json(_ key: String) throws -> JSONValue {
            let answer = try #require(answers[key], "\(key)")
            #expect(answer.status == .ok, "\(key): \(answer.text)")
            return try JSONParser.parse(Array(answer.text.utf8))
        }
        func total(_ key: String) throws -> Int {
            (try json(key).arrayValue ?? []).compactMap { $0["count"]?.intValue }.reduce(0) { $0 + Int($1) }
        }
        #expect(try total("android /api/0/groups") == 1)
        #expect(try json("android /api/0/reports").arrayValue?.count == 1)
        #expect(answers["android /api/0/show/4158fa09"]?.status == .notFound)
        #expect(answers["android /api/0/replay/4158fa09"]?.status == .notFound)
        #expect(answers["android /"]?.text.matches(of: /groups\/[A-Za-z0-9-]+\.html/).count == 1)
        // And project 1 sees its three, the operator all four, or one project's when it names it
        #expect(try total("ios /api/0/groups") == 3)
        #expect(try json("ios /api/0/reports").arrayValue?.count == 3)
        #expect(answers["ios /api/0/show/4158fa09"]?.status == .ok)
        #expect(answers["ios /api/0/replay/4158fa09"]?.status == .ok)
        #expect(try total("operator /api/0/groups") == 4)
        #expect(answers["operator /api/0/groups?project=android"]?.text == answers["android /api/0/groups"]?.text)
        #expect(answers["operator /api/0/groups?project=1"]?.text == answers["ios /api/0/groups"]?.text)
        #expect(answers["operator /api/0/reports?project=2"]?.text == answers["android /api/0/reports"]?.text)
        // And a revoked project's token reads nothing, while the operator still reads what the project kept
        #expect(answers["watch"]?.status == .forbidden)
        #expect(answers["watch"]?.detail.contains("was revoked") == true, "\(answers["watch"]?.detail ?? "")")
        #expect(answers["operator /api/0/groups?project=watch"]?.status == .ok)
        #expect(answers["operator /api/0/groups?project=watch"]?.text == "[]")
        // And each project's paths count its own reports with a trail: together, the operator's
        let paths = try ["ios", "android", "operator"].map { name in
            (try json("\(name) /api/0/paths").arrayValue ?? []).compactMap { $0["count"]?.intValue }.reduce(0) { $0 + Int($1) }
        }
        #expect(paths[1] == 1)
        #expect(paths[0] + paths[1] == paths[2])

        // And a merge made in project 2 shows on project 2's pages only: its signatures name project 2's code
        let store = fixture.service.store
        let shared = try #require(try store.allRecords().first { $0.project == 2 }).signature
        try store.addGroupMerge(["android's own frame"], into: shared, project: 2, at: "2026-11-29T00:00:00Z")
        #expect(try fixture.service.reading(project: 1).groupMerges().isEmpty)
        #expect(try fixture.service.reading(project: 2).groupMerges().map(\.signature) == ["android's own frame"])
        #expect(try fixture.service.groupMerges().count == 1)
    }

    @Test("/health answers, /metrics counts requests by endpoint and status, reports stored and the backlog")
    func healthAndMetrics() async throws {
        // Given
        let fixture = try ServerFixture(publicRead: true)
        defer { fixture.remove() }

        // When
        let (health, metrics) = try await fixture.test { client in
            try await Self.fill(client)
            _ = try await client.post("/api/1/store/", [1], headers: bearer("wrong"))
            return (try await client.execute(uri: "/health", method: .get), try await client.execute(uri: "/metrics", method: .get))
        }

        // Then
        #expect(health.status == .ok)
        #expect(health.text == #"{"status":"ok"}"#)
        let lines = Set(metrics.text.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"crashtrail_http_requests_total{endpoint="/api/ID/envelope",status="200"} 1"#))
        #expect(lines.contains(#"crashtrail_http_requests_total{endpoint="/api/ID/store",status="401"} 1"#))
        #expect(lines.contains("crashtrail_reports_stored_total 3"))
        #expect(lines.contains("crashtrail_backlog 0.0"))
        #expect(lines.contains { $0.hasPrefix(#"crashtrail_http_request_duration_seconds_count{endpoint="/api/ID/reports"} 1"#) })
    }
}
