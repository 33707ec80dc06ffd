import CrashtrailStore
import CrashtrailTestSupport
import Dispatch
import Foundation
import Testing

/// Two `crashtrail serve` processes on one PostgreSQL store, as behind a load balancer: they share the projects, and
/// an event sent to both (an SDK's retry that the balancer routes to the other) is stored once.
@Suite("crashtrail serve: two instances on one PostgreSQL store", .needsPostgres)
struct SharedServeTests {
    @Test("Started together they share one default project; 200 events, each sent to both, are stored once each")
    func twoInstances() throws {
        // Given two services started at once on a new database
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("shared-serve")
        defer { folder.remove() }
        let url = try TestStores.newDatabase()
        let started = IndexedResults<ServeProcess>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            started.set(index, try? ServeProcess(runner: runner, arguments: ["--store", url, "--quiet"], directory: folder.url))
        }
        let services = try started.values.map { try #require($0, "a service did not start") }
        defer { for service in services { service.stop(SIGTERM) } }
        #expect(services[0].dsn.split(separator: "@").first == services[1].dsn.split(separator: "@").first, "one key")

        // When four connections send 200 events, each to both services
        let failures = IndexedResults<String>(count: 200)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker, to: 200, by: 4) {
                let id = String(format: "%032x", 0x5e_4e_0000 + index)
                for service in index % 2 == 0 ? services : services.reversed() {
                    let status = SampleEnvelope.post(eventID: id, to: service)
                    if status != 200 { failures.set(index, "\(id): \(status.map(String.init) ?? "no answer")") }
                }
            }
        }

        // Then
        #expect(failures.values.compactMap { $0 }.isEmpty, "\(failures.values.compactMap { $0 }.prefix(3))")
        let store = try TestStores.open(url)
        let records = try store.allRecords()
        #expect(records.count == 200)
        #expect(try store.projects().count == 1)
    }
}

/// Results set by index from several threads.
final class IndexedResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Value?) { lock.withLock { slots[index] = value } }
    var values: [Value?] { lock.withLock { slots } }
}
