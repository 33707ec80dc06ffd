import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// Reports stored in multi-row statements (`ReportStore.insert(_:idDecides:in:)`) come out as each stored alone would:
/// stored, duplicate, or other bytes kept under `ID~HASH`, on both backends.
@Suite("Multi-row inserts")
struct BatchInsertTests {
    @Test("On SQLite: a batch larger than one statement gives each report the outcome a single insert gives")
    func onSQLite() throws { try Self.outcomes(kind: .sqlite) }

    @Test("On SQLite in multi-row statements, as PostgreSQL stores them: the same outcomes")
    func onSQLiteMultiRow() throws { try Self.outcomes(kind: .sqlite, rowsPerStatement: 256) }

    @Test("On PostgreSQL: a batch larger than one statement gives each report the outcome a single insert gives", .needsPostgres)
    func onPostgres() throws { try Self.outcomes(kind: .postgres) }

    /// Stores the same batch in one store with ``ReportStore/insert(_:idDecides:rowsPerStatement:in:)`` and in a
    /// reference one report at a time, and compares the outcomes; `rowsPerStatement` is the backend's choice when nil
    /// (one on SQLite).
    static func outcomes(kind: StoreKind, rowsPerStatement: Int? = nil) throws {
        // Given a store holding two reports, and a batch of 300 new ones with, among them: one of the stored reports
        // again, another with other bytes under a stored ID, one ID twice with the same bytes and once with others,
        // and an ID holding U+0000
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        let reference = try ReportStore.open(path: folder.url.appendingPathComponent("reference.sqlite").path)
        let filled = try TestStores.make(.sqlite, in: folder).store
        _ = try TestStores.ingestSamples(into: filled, folder: folder)
        let sample = try #require(try filled.allRecords().first)
        let all = TestStores.copies(of: sample, count: 302)
        let stored = Array(all.prefix(2))
        var batch = Array(all.dropFirst(2))
        batch[10] = stored[0]
        batch[20] = stored[1]
        batch[20].sha256 = String(repeating: "e", count: 64)
        batch[30] = batch[29]
        batch[40] = batch[29]
        batch[40].sha256 = String(repeating: "f", count: 64)
        batch[50].id = "nul\u{0}id"
        batch[51] = batch[50]
        for target in [store, reference] {
            try target.write { db in for record in stored { _ = try ReportStore.insert(record, in: db) } }
        }

        // When
        let batched = try store.write { db in try ReportStore.insert(batch, rowsPerStatement: rowsPerStatement, in: db) }
        let single = try reference.write { db in try batch.map { try ReportStore.insert($0, in: db) } }

        // Then
        #expect(batched == single)
        #expect(batched[10] == .duplicate(stored[0].id))
        #expect(batched[20] == .stored(stored[1].id + "~" + String(repeating: "e", count: 12)))
        #expect(batched[30] == .duplicate(batch[29].id))
        #expect(batched[51] == .duplicate("nul\u{0}id"))
        #expect(try store.allRecords().count == reference.allRecords().count)

        // And with the ID deciding (Sentry's retries), other bytes under a taken ID are the same report again
        let again = try store.write { db in
            try ReportStore.insert([batch[20], batch[40], batch[51]], idDecides: true, rowsPerStatement: rowsPerStatement, in: db)
        }
        #expect(again == [.duplicate(stored[1].id), .duplicate(batch[29].id), .duplicate("nul\u{0}id")])
    }
}
