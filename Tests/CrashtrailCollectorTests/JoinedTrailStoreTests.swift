import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB
import Testing

@testable import CrashtrailStore

/// A trail joined later is stored in a row of its own, so the report row (and its payload) is never rewritten;
/// reports read the same whether their trail was joined that way or, by an older version, into the report row.
@Suite struct JoinedTrailStoreTests {
    private func ingestedSamples() throws -> (ReportStore, URL) {
        let folder = try TestFiles.temporaryFolder()
        let store = try TestFiles.memoryStore()
        _ = try TestFiles.ingest(
            [TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder,
            trails: TestFiles.samples.appendingPathComponent("trails").path)
        return (store, folder)
    }

    @Test func aJoinedTrailLeavesTheReportRowAsItWas() throws {
        let (store, folder) = try ingestedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let joined = try store.allRecords().filter { $0.trailSource == .joined }
        #expect(!joined.isEmpty, "the samples have a trail file to join")
        try store.sqliteWriter.read { db in
            for record in joined {
                let row = try #require(
                    try Row.fetchOne(db, sql: "SELECT trailSource, trail FROM report WHERE id = ?", arguments: [record.id]))
                #expect(row["trailSource"] as String == "missing")
                #expect(row["trail"] as String? == nil)
                #expect(try String.fetchOne(db, sql: "SELECT trail FROM joinedTrail WHERE id = ?", arguments: [record.id]) == record.trail)
            }
        }
        // Joined reports no longer await a trail, and a second join of the same report is refused.
        #expect(try store.countReportsAwaitingTrail() == 0)
        let trail = try #require(try joined[0].decodedTrail())
        #expect(
            try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: joined[0].id, in: db) }
                == false)
        let first = trail.app.bundleID
        #expect(
            try store.reportsAwaitingTrail(bundleID: first, pid: trail.session.pid, started: joined[0].launchTime ?? 0, tolerance: 2000)
                .isEmpty)
    }

    @Test func trailsJoinedIntoReportRowsByOlderVersionsReadTheSame() throws {
        let (store, folder) = try ingestedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let current = try store.allRecords()
        let reports = try store.reports()
        let groups = try store.groups()

        // When each joined trail is moved into its report row, as versions before the joinedTrail table stored it
        try store.write { db in
            try db.execute(
                """
                UPDATE report SET trailSource = 'joined', trailSteps = (SELECT steps FROM joinedTrail WHERE joinedTrail.id = report.id),
                    trailError = NULL, trail = (SELECT trail FROM joinedTrail WHERE joinedTrail.id = report.id),
                    trailDictionary = (SELECT dictionary FROM joinedTrail WHERE joinedTrail.id = report.id),
                    screenPath = (SELECT screenPath FROM joinedTrail WHERE joinedTrail.id = report.id),
                    pathManifest = (SELECT pathManifest FROM joinedTrail WHERE joinedTrail.id = report.id)
                WHERE id IN (SELECT id FROM joinedTrail)
                """)
            try db.execute("DELETE FROM joinedTrail")
        }

        // Then every read gives the same records, reports and groups, and nothing awaits a trail
        #expect(try store.allRecords() == current)
        #expect(try store.reports() == reports)
        #expect(try store.groups() == groups)
        for record in current {
            #expect(try store.record(id: record.id) == record)
        }
        #expect(try store.countReportsAwaitingTrail() == 0)
        let joined = try #require(current.first { $0.trailSource == .joined })
        let trail = try #require(try joined.decodedTrail())
        #expect(
            try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: joined.id, in: db) }
                == false)
    }

    @Test func aStoreMadeBeforeTheJoinedTrailTableMigratesWithItsRows() throws {
        // Given a store at the schema before joinedTrail, holding the samples' rows
        let (source, folder) = try ingestedSamples()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = try source.allRecords()
        let queue = try DatabaseQueue()
        try SQLiteBackend.migrator.migrate(queue, upTo: "v2: payload digest index")
        try queue.write { db in
            #expect(try db.tableExists("joinedTrail") == false)
            // The columns of the released v2 schema: every column but those later migrations added.
            let columns = ReportColumn.allCases.filter {
                ![.trailDictionary, .exceptionFrames, .details, .screenPath, .pathManifest, .project].contains($0)
            }
            let sql =
                "INSERT INTO report (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            for record in records { _ = try SQLiteTransaction(db).execute(sql, columns.map(record.value(of:))) }
        }

        // When it is opened by this version
        let store = try ReportStore(queue)

        // Then the new table is there and every row reads as it was written (with no trail dictionary and no exception
        // backtrace or details, which v2 did not keep)
        #expect(try queue.read { db in try db.tableExists("joinedTrail") })
        #expect(
            try store.allRecords()
                == records.map { record in
                    var record = record
                    record.trailDictionary = nil
                    record.exceptionFrames = "[]"
                    record.details = "{}"
                    record.screenPath = nil
                    record.pathManifest = nil
                    return record
                })
    }
}

/// The set of stored digest prefixes that lets new payloads skip the stored-digest lookup.
@Suite struct StoredDigestPrefixTests {
    @Test func prefixesAreTheFirstSixteenHexDigits() {
        #expect(ReportStore.digestPrefix("0123456789abcdef" + String(repeating: "0", count: 48)) == 0x0123_4567_89AB_CDEF)
        #expect(ReportStore.digestPrefix(String(repeating: "f", count: 64)) == UInt64.max)
        #expect(ReportStore.digestPrefix("0123456789ABCDEF") == nil, "digests are lower-case hex")
        #expect(ReportStore.digestPrefix("0123") == nil)
        #expect(ReportStore.digestPrefix("report-id-not-a-digest") == nil)
    }

    @Test func everyStoredDigestIsInTheSet() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        #expect(try store.storedDigestPrefixes().isEmpty)
        _ = try TestFiles.ingest([TestFiles.samples.appendingPathComponent("reports").path], store: store, folder: folder)
        let prefixes = try store.storedDigestPrefixes()
        let records = try store.allRecords()
        #expect(!records.isEmpty)
        for record in records {
            #expect(prefixes.contains(try #require(ReportStore.digestPrefix(record.sha256))))
        }
    }

    @Test func theSameInputTwiceInOneRunIsStoredOnce() throws {
        // The set is read when the run starts, so a second copy in the same run is caught when it is inserted.
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = try #require(
            EngineComparison.files(under: TestFiles.samples.appendingPathComponent("reports")).first { $0.pathExtension == "ips" })
        let copies = folder.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        for name in ["a.ips", "b.ips"] { try FileManager.default.copyItem(at: sample, to: copies.appendingPathComponent(name)) }
        let store = try TestFiles.memoryStore()
        let summary = try TestFiles.ingest([copies.path], store: store, folder: folder)
        #expect(summary.stored == 1)
        #expect(summary.duplicates == 1)
        let again = try TestFiles.ingest([copies.path], store: store, folder: folder)
        #expect(again.stored == 0)
        #expect(again.duplicates == 2)
    }
}
