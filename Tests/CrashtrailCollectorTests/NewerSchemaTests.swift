import Foundation
import GRDB
import Testing

@testable import CrashtrailStore

@Suite("A store from a newer crashtrail")
struct NewerSchemaTests {
    @Test("A store with a migration this version does not know is refused with what to do, and left as it was")
    func refusesNewerSchema() throws {
        // Given a store migrated by this version, then by a newer one
        let queue = try DatabaseQueue()
        _ = try ReportStore(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: something newer')")
            try db.execute(sql: "CREATE TABLE newer (x INTEGER)")
        }
        // When this version opens it
        let error = #expect(throws: StoreError.self) { try ReportStore(queue) }
        // Then it says so and changes nothing
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("written by a newer crashtrail") == true, "\(String(describing: error))")
        #expect(error?.message.contains("v99: something newer") == true)
        #expect(try queue.read { db in try db.tableExists("newer") })
    }
}
