import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Synchronization
import Testing

/// The forwarding outbox (SPEC section 17) on both backends: queued in the transaction that stores a report, claimed by
/// one sender at a time for a lease, settled, and counted.
@Suite("Forwarding outbox")
struct ForwardOutboxTests {
    @Test("On SQLite: queue, claim, lease, settle and status")
    func onSQLite() throws { try Self.lifecycle(kind: .sqlite) }

    @Test("On PostgreSQL: queue, claim, lease, settle and status", .needsPostgres)
    func onPostgres() throws { try Self.lifecycle(kind: .postgres) }

    @Test("On PostgreSQL: two senders claiming at once never hold the same report", .needsPostgres)
    func concurrentClaims() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, name) = try TestStores.make(.postgres, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let upstream = "http://127.0.0.1:9/1"
        let queued = try store.queueForwarding(.all, to: upstream, now: 1_000)
        let other = try TestStores.open(name)
        let claims = Mutex<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let store = index % 2 == 0 ? store : other
            var mine: [String] = []
            while let batch = try? store.claimForwarding(upstream: upstream, limit: 2, now: 2_000, lease: 60_000), !batch.isEmpty {
                mine += batch.map(\.reportID)
            }
            claims.withLock { $0.append(mine) }
        }
        let all = claims.withLock { $0.flatMap { $0 } }
        #expect(all.count == queued, "every report claimed once: \(all.count) claims of \(queued)")
        #expect(Set(all).count == all.count)
    }

    static func lifecycle(kind: StoreKind) throws {
        // Given a store of the samples, two upstreams
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        _ = try TestStores.ingestSamples(into: store, folder: folder)
        let ids = try store.allRecords().map(\.id).sorted()
        let first = "https://sentry.example.com/42"
        let second = "http://127.0.0.1:9000/1"

        // When the reports are queued in a transaction, and again by a filter
        try store.write { db in try ReportStore.queueForwarding(Array(ids.prefix(3)), to: [first, second], now: 1_000, in: db) }
        let queuedByFilter = try store.queueForwarding(.all, to: first, now: 2_000)

        // Then each report is queued once for each upstream
        #expect(queuedByFilter == ids.count - 3)
        var status = try store.forwardingStatus()
        #expect(status.map(\.upstream) == [second, first].sorted())
        #expect(status.first { $0.upstream == first }?.waiting == ids.count)
        #expect(status.first { $0.upstream == first }?.oldestWaiting == 1_000)

        // When one sender claims: nothing due before `due`; a claim is held until its lease ends
        let early = try store.claimForwarding(upstream: first, limit: 100, now: 500, lease: 10_000)
        let claimed = try store.claimForwarding(upstream: first, limit: 4, now: 3_000, lease: 10_000)
        let meanwhile = try store.claimForwarding(upstream: first, limit: 100, now: 4_000, lease: 10_000)
        #expect(early.isEmpty)
        #expect(claimed.count == 4)
        #expect(meanwhile.count == ids.count - 4)
        #expect(Set(claimed.map(\.reportID)).isDisjoint(with: meanwhile.map(\.reportID)))
        #expect(try store.hasDueForwarding(upstream: first, now: 5_000) == false)
        // A sender that died: its claims come back when the lease ends
        let again = try store.claimForwarding(upstream: first, limit: 100, now: 13_001, lease: 10_000)
        #expect(Set(again.map(\.reportID)) == Set(claimed.map(\.reportID)))

        // When they are settled: delivered, retried later, set aside
        try store.settleForwarding(
            [
                (again[0], .delivered), (again[1], .retry(due: 20_000, reason: "HTTP 503", counts: true)),
                (again[2], .setAside(reason: "HTTP 400: bad event")),
                (again[3], .retry(due: 15_000, reason: "waiting for its trail", counts: false)),
            ], now: 14_000)

        // Then
        status = try store.forwardingStatus()
        let upstream = try #require(status.first { $0.upstream == first })
        #expect(upstream.delivered == 1)
        #expect(upstream.setAside == ["HTTP 400: bad event": 1])
        #expect(upstream.retrying == 1)
        #expect(upstream.waiting == ids.count - 3)
        // (the claims of `meanwhile` ended at 14,000: those reports are due again too)
        let held = try store.claimForwarding(upstream: first, limit: 100, now: 16_000, lease: 1).map(\.reportID)
        #expect(held.contains(again[3].reportID) && !held.contains(again[1].reportID) && !held.contains(again[0].reportID))
        let retried = try store.claimForwarding(upstream: first, limit: 100, now: 21_000, lease: 1)
        #expect(retried.map(\.reportID).contains(again[1].reportID))
        #expect(retried.first { $0.reportID == again[1].reportID }?.attempts == 1)
        // A delivered or set-aside report is not queued again for the same upstream
        #expect(try store.queueForwarding(.all, to: first, now: 30_000) == 0)
        // The other upstream's queue is its own
        #expect(try store.forwardingStatus().first { $0.upstream == second }?.waiting == 3)
    }
}
