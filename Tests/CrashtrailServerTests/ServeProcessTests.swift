import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Dispatch
import Foundation
import Testing

/// `crashtrail serve` as a process: it stops cleanly on SIGTERM, loses nothing it acknowledged when killed with
/// SIGKILL, and survives hostile clients (SPEC section 14, docs/SERVE.md).
@Suite("crashtrail serve: the process")
struct ServeProcessTests {
    /// Four connections posting envelopes of new event IDs (from `seed`) to `serve`, each `perWorker` times or until
    /// `stop` is set or the service stops answering; the IDs answered 200 go into `acknowledged`.
    /// - Returns: the group the loaders run in.
    static func load(
        _ serve: ServeProcess, seed: UInt64, perWorker: Int = .max, until stop: LockedFlag = LockedFlag(), into acknowledged: LockedIDs
    ) -> DispatchGroup {
        let loaders = DispatchGroup()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: loaders) {
                var random = SplitMix64(seed: seed &+ UInt64(worker))
                // The flag ends the loop: a `where` clause would only skip the remaining iterations, one by one.
                for _ in 0..<perWorker {
                    if stop.isSet { return }
                    let id = Self.eventID(&random)
                    guard let status = SampleEnvelope.post(eventID: id, to: serve) else { return }
                    if status == 200 { acknowledged.insert(id) }
                }
            }
        }
        return loaders
    }

    static func eventID(_ random: inout SplitMix64) -> String {
        String(format: "%016llx%016llx", random.next(), random.next())
    }

    static func stored(in store: URL) throws -> Set<String> {
        let service = try TriageService(location: StoreLocation(store.path), creating: false)
        return Set(try service.store.allRecords().map(\.id))
    }

    @Test("SIGTERM stops accepting, answers what is in flight and exits 0; every report answered 200 is stored")
    func gracefulStop() throws {
        // Given a service under load from four connections
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("crashtrail-serve")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path], directory: folder.url)
        let acknowledged = LockedIDs()
        let loaders = Self.load(serve, seed: 1, perWorker: 200, into: acknowledged)

        // When it is stopped once some reports are in
        while acknowledged.count < 20 { Thread.sleep(forTimeInterval: 0.01) }
        serve.stop(SIGTERM)
        loaders.wait()

        // Then
        #expect(serve.signal == nil)
        #expect(serve.status == 0, "\(serve.stderr)")
        let stored = try Self.stored(in: store)
        #expect(acknowledged.ids.isSubset(of: stored), "acknowledged but not stored: \(acknowledged.ids.subtracting(stored).sorted())")
    }

    @Test("Killed with SIGKILL at 20 random moments under load, every report answered 200 is stored; sent again, none twice")
    func durableUnderSIGKILL() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("crashtrail-serve")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        var random = SplitMix64(seed: 20_261_126)
        let acknowledged = LockedIDs()
        var kills = 0

        // When the service is killed 20 times while four connections post envelopes
        for cycle in 0..<20 {
            let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path, "--quiet"], directory: folder.url)
            let stop = LockedFlag()
            let before = acknowledged.count
            let loaders = Self.load(serve, seed: UInt64(cycle * 10 + 1), until: stop, into: acknowledged)
            // The random moment is counted from the first answer, so a machine slowed by other work still kills a
            // service that is taking load, not one that has answered nothing yet.
            let deadline = Date().addingTimeInterval(30)
            while acknowledged.count == before, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            Thread.sleep(forTimeInterval: 0.05 + Double(random.next() % 300) / 1000)
            serve.stop(SIGKILL)
            stop.set()
            loaders.wait()
            if serve.signal == SIGKILL { kills += 1 }

            // Then everything acknowledged so far is in the store the killed service left
            let stored = try Self.stored(in: store)
            let lost = acknowledged.ids.subtracting(stored)
            try #require(lost.isEmpty, "cycle \(cycle): acknowledged but lost: \(lost.sorted().prefix(5))")
        }
        #expect(kills == 20)
        #expect(acknowledged.count > 100, "the load reached the service: \(acknowledged.count) reports acknowledged")

        // And sending every acknowledged report again stores none twice
        let before = try Self.stored(in: store)
        let serve = try ServeProcess(runner: runner, arguments: ["--store", store.path, "--quiet"], directory: folder.url)
        for id in acknowledged.ids.sorted() {
            try #require(SampleEnvelope.post(eventID: id, to: serve) == 200)
        }
        serve.stop(SIGTERM)
        #expect(try Self.stored(in: store) == before)
    }

    @Test("Hostile clients: 1 MB of headers, a body that ends early, a stalled request, a thousand idle connections")
    func hostileClients() throws {
        // Given
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("crashtrail-serve")
        defer { folder.remove() }
        let store = folder.url.appendingPathComponent("store.sqlite")
        let serve = try ServeProcess(
            runner: runner, arguments: ["--store", store.path, "--idle-timeout", "1", "--quiet"], directory: folder.url)
        defer { serve.stop(SIGKILL) }
        func healthy() -> Bool { LoopbackConnection.request(port: serve.port, "GET", "/health")?.status == 200 }
        try #require(healthy())

        // When: 1 MB of headers
        let huge = LoopbackConnection.request(
            port: serve.port, "POST", "/api/1/reports", headers: ["X-Padding": String(repeating: "a", count: 1 << 20)], body: [1])
        // Then it is refused or the connection closed, and the service still answers
        #expect(huge == nil || (400..<500).contains(huge?.status ?? 0))
        #expect(healthy())

        // When: a body that ends early
        let early = try LoopbackConnection(port: serve.port)
        early.write(
            Array(
                "POST /api/1/reports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(serve.key)\r\nContent-Length: 100000\r\n\r\n{\"a\":"
                    .utf8))
        // And: a request that stalls halfway through its headers, closed by the idle timeout
        let stalled = try LoopbackConnection(port: serve.port, timeout: 8)
        stalled.write(Array("POST /api/1/reports HTTP/1.1\r\nHost: x\r\n".utf8))
        let stalledStart = Date()
        let stalledAnswer = stalled.readResponse()
        let stalledFor = Date().timeIntervalSince(stalledStart)
        // Then
        #expect(stalledAnswer == nil)
        #expect(stalledFor < 5, "the stalled connection was closed after \(stalledFor) s (idle timeout 1 s)")
        #expect(healthy())

        // When: a thousand idle connections
        var idle: [LoopbackConnection] = []
        for _ in 0..<1000 { idle.append(try LoopbackConnection(port: serve.port)) }
        // Then the service still answers and stays within its memory bound
        #expect(healthy())
        let resident = try #require(serve.residentBytes)
        #expect(resident < 256 << 20, "resident memory \(resident >> 20) MiB with 1000 connections")
        idle.removeAll()
        #expect(try Self.stored(in: store).isEmpty)
    }
}

/// Event IDs the loaders saw answered 200.
final class LockedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var set: Set<String> = []
    func insert(_ id: String) { lock.withLock { _ = set.insert(id) } }
    var ids: Set<String> { lock.withLock { set } }
    var count: Int { lock.withLock { set.count } }
}

/// A flag set once, read from several threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
