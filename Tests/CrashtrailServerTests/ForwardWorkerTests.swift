import CrashtrailCore
import CrashtrailForward
import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import CrashtrailServer

/// The outbox's sender against an upstream on loopback that answers as a script says.
///
/// 503 then 200, 429 with `Retry-After`, 400 and 413. The clock is the test's.
@Suite("Forwarding: retries, rate limits and refusals")
struct ForwardWorkerTests {
    /// What the fake upstream answers each event ID, in turn (200 once the list is used up), and what it received.
    final class Upstream: Sendable {
        let script: Mutex<[String: [(Int, [String: String])]]>
        let received = Mutex<[String]>([])

        init(script: [String: [(Int, [String: String])]]) { self.script = Mutex(script) }

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("/api/:project/envelope") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                let header = String(buffer: body).split(separator: "\n").first.map(String.init) ?? ""
                let id = (try? JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])?["event_id"] as? String ?? "?"
                self.received.withLock { $0.append(id) }
                let (status, headers) = self.script.withLock { script -> (Int, [String: String]) in
                    guard var answers = script[id], !answers.isEmpty else { return (200, [:]) }
                    let first = answers.removeFirst()
                    script[id] = answers
                    return first
                }
                var fields = HTTPFields()
                for (name, value) in headers { if let field = HTTPField.Name(name) { fields[field] = value } }
                return Response(
                    status: .init(code: status), headers: fields,
                    body: ResponseBody(byteBuffer: ByteBuffer(string: status == 200 ? #"{"id":"\#(id)"}"# : "refused \(status)")))
            }
            return router
        }

        func count(_ id: String) -> Int { received.withLock { $0.filter { $0 == id }.count } }
    }

    @Test("A 503 is retried after its backoff, a 429 holds the whole upstream until Retry-After, 400 and 413 are set aside")
    func retriesAndRefusals() async throws {
        // Given four stored reports queued for an upstream that answers each differently
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            for sample in ["ips-joined-by-pid.ips", "kscrash-user-ct1.json", "sentry-event-contexts-ct1.json", "crashtrail-ct1-text.json"] {
                _ = try await client.post(
                    "/api/1/reports", try ServerFixture.sample("reports/\(sample)"), headers: bearer(ServerFixture.key))
            }
        }
        let ids = try fixture.service.store.allRecords().map(\.id).sorted()
        try #require(ids.count == 4)
        let events = ids.map(SentryEventBuilder.eventID)
        let upstream = Upstream(script: [
            events[0]: [(503, [:])], events[1]: [(400, [:])], events[2]: [(413, [:])], events[3]: [(429, ["Retry-After": "30"])],
        ])
        let clock = Mutex<Int64>(1_000_000)
        let result = try await Application(router: upstream.router()).test(.live) { client in
            let port = try #require(client.port)
            let dsn = try UpstreamDSN("http://key@127.0.0.1:\(port)/1")
            _ = try fixture.service.store.queueForwarding(.all, to: dsn.identity, now: 1_000_000)
            let httpClient = UpstreamClient(timeoutSeconds: 5)
            let preparation = TriageService.ForwardPreparation(
                builder: SentryEventBuilder(grouping: false), hold: 0, publicURL: nil,
                manifests: try fixture.service.store.storedManifests())
            let service = fixture.service
            var options = ForwardWorker.Options()
            options.concurrency = 1
            let worker = ForwardWorker(
                store: service.store, upstreams: [dsn], client: httpClient, options: options,
                time: TimeSource(milliseconds: { clock.withLock { $0 } }, uptimeNanoseconds: { 0 }),
                random: { 0 }
            ) { claim in service.prepareForwarding(claim, preparation, now: clock.withLock { $0 }) }

            // When the first pass sends each once
            let first = await worker.pass()
            let afterFirst = try service.store.forwardingStatus()
            // and ten seconds later the upstream still asks to wait
            clock.withLock { $0 += 10_000 }
            let second = await worker.pass()
            // and after its Retry-After
            clock.withLock { $0 += 21_000 }
            let third = await worker.pass()
            await httpClient.shutdown()
            return (first, afterFirst, second, third, try service.store.forwardingStatus())
        }
        let (first, afterFirst, second, third, status) = result

        // Then
        #expect(first.setAside == 2 && first.retried + first.held == 2, "\(first)")
        let waiting = try #require(afterFirst.first)
        #expect(waiting.setAside.keys.sorted() == ["HTTP 400: refused 400", "HTTP 413: refused 413"])
        #expect(second.claimed == 0, "a 429 holds the upstream: \(second)")
        #expect(third.delivered == 2, "\(third)")
        #expect(upstream.count(events[0]) == 2 && upstream.count(events[3]) == 2)
        #expect(upstream.count(events[1]) == 1 && upstream.count(events[2]) == 1, "a set-aside report is never sent again")
        #expect(status.first?.delivered == 2 && status.first?.waiting == 0 && status.first?.retrying == 0)
    }
}
