import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailPostgres
import CrashtrailReports
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import GRDB
import Testing

/// One suite, run on both backends: every query the store offers gives, on PostgreSQL, exactly what it gives on the
/// embedded SQLite reference (an in-memory store filled the same way).
@Suite("Store on both backends")
struct StoreBackendTests {
    /// The checks on the embedded SQLite store (the copy between backends needs the PostgreSQL server too).
    @Suite("On SQLite")
    struct OnSQLite {
        @Test("The samples read back the same: records, reports, groups, manifests and the store's digest")
        func samplesReadTheSame() throws { try StoreBackendTests.samplesReadTheSame(on: .sqlite) }

        @Test("Filters by app, version, time and group take the same reports")
        func filters() throws { try StoreBackendTests.filters(on: .sqlite) }

        @Test("ID prefixes find one report or group, in either case, or say why not")
        func prefixes() throws { try StoreBackendTests.prefixes(on: .sqlite) }

        @Test("An ID prefix walks the index to the IDs a case-insensitive LIKE finds (seeded IDs in mixed case)")
        func prefixSearch() throws { try StoreBackendTests.prefixSearch(on: .sqlite) }

        @Test("A report stored twice is a duplicate; its ID with other bytes is kept under ID~hash, once")
        func insertOutcomes() throws { try StoreBackendTests.insertOutcomes(on: .sqlite) }

        @Test("A trail joins a report once; a second join changes nothing")
        func joinsOnce() throws { try StoreBackendTests.joinsOnce(on: .sqlite) }

        @Test("Listings of more rows than a cursor page stream in order")
        func streamsManyRows() throws { try StoreBackendTests.streamsManyRows(on: .sqlite) }

        @Test("Values read back as written, a text repeated row after row or not, a NUL in a text")
        func valuesReadBack() throws { try StoreBackendTests.valuesReadBack(on: .sqlite) }

        @Test("A group's path counts read back summed, for paths with colons, digits, escapes and other scripts")
        func pathCounts() throws { try StoreBackendTests.pathCounts(on: .sqlite) }

        @Test("Reprocess resumes after its cursor and changes nothing the second time")
        func reprocess() throws { try StoreBackendTests.reprocess(on: .sqlite) }

        @Test("Four stores writing the same reports at once, in other orders, store each once")
        func concurrentWriters() throws { try StoreBackendTests.concurrentWriters(on: .sqlite) }

        @Test("A store copies to the other backend and back, verified", .needsPostgres)
        func copiesAcross() throws { try StoreBackendTests.copiesAcross(on: .sqlite) }
    }

    /// The same checks on PostgreSQL: skipped without a test server, required in CI.
    @Suite("On PostgreSQL", .needsPostgres)
    struct OnPostgres {
        @Test("The samples read back the same: records, reports, groups, manifests and the store's digest")
        func samplesReadTheSame() throws { try StoreBackendTests.samplesReadTheSame(on: .postgres) }

        @Test("Filters by app, version, time and group take the same reports")
        func filters() throws { try StoreBackendTests.filters(on: .postgres) }

        @Test("ID prefixes find one report or group, in either case, or say why not")
        func prefixes() throws { try StoreBackendTests.prefixes(on: .postgres) }

        @Test("An ID prefix walks the index to the IDs a case-insensitive LIKE finds (seeded IDs in mixed case)")
        func prefixSearch() throws { try StoreBackendTests.prefixSearch(on: .postgres) }

        @Test("A report stored twice is a duplicate; its ID with other bytes is kept under ID~hash, once")
        func insertOutcomes() throws { try StoreBackendTests.insertOutcomes(on: .postgres) }

        @Test("A trail joins a report once; a second join changes nothing")
        func joinsOnce() throws { try StoreBackendTests.joinsOnce(on: .postgres) }

        @Test("Listings of more rows than a cursor page stream in order")
        func streamsManyRows() throws { try StoreBackendTests.streamsManyRows(on: .postgres) }

        @Test("Values read back as written, a text repeated row after row or not, a NUL in a text")
        func valuesReadBack() throws { try StoreBackendTests.valuesReadBack(on: .postgres) }

        @Test("A group's path counts read back summed, for paths with colons, digits, escapes and other scripts")
        func pathCounts() throws { try StoreBackendTests.pathCounts(on: .postgres) }

        @Test("Reprocess resumes after its cursor and changes nothing the second time")
        func reprocess() throws { try StoreBackendTests.reprocess(on: .postgres) }

        @Test("Four stores writing the same reports at once, in other orders, store each once")
        func concurrentWriters() throws { try StoreBackendTests.concurrentWriters(on: .postgres) }

        @Test("A store copies to the other backend and back, verified")
        func copiesAcross() throws { try StoreBackendTests.copiesAcross(on: .postgres) }
    }

    /// The samples ingested into an in-memory SQLite store: what every backend must read back.
    static func reference(folder: TemporaryFolder) throws -> ReportStore {
        let store = try ReportStore(DatabaseQueue())
        try TestStores.ingestSamples(into: store, folder: folder)
        return store
    }

    /// The samples read back the same: records, reports, groups, manifests and the store's digest.
    static func samplesReadTheSame(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        let reference = try Self.reference(folder: folder)
        let summary = try TestStores.ingestSamples(into: store, folder: folder)
        #expect(summary.stored == 11 && summary.trailsJoined == 1)

        let records = try store.allRecords()
        #expect(records == (try reference.allRecords()))
        #expect(records.count == 11)
        #expect(try store.reports() == (try reference.reports()))
        #expect(try store.groups() == (try reference.groups()))
        #expect(try store.storedManifests().map(\.app) == (try reference.storedManifests().map(\.app)))
        #expect(try store.countReportsAwaitingTrail() == (try reference.countReportsAwaitingTrail()))
        #expect(try store.digest() == (try reference.digest()))

        var streamed: [CrashReport] = []
        try store.forEachReport { report, _ in streamed.append(report) }
        #expect(streamed == (try reference.reports()))
    }

    /// Filters by app, version, time and group take the same reports.
    static func filters(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        let reference = try Self.reference(folder: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let all = try reference.reports()
        let times = all.compactMap(\.time).compactMap(Timestamp.milliseconds(parsing:)).sorted()
        let middle = times[times.count / 2]
        let filters = [
            ReportFilter(bundleID: all.first?.app.bundleID), ReportFilter(appVersion: "3.1.0"), ReportFilter(since: middle),
            ReportFilter(until: middle), ReportFilter(since: middle, until: middle + 60_000),
            ReportFilter(signature: try reference.groups().first?.signature), ReportFilter(bundleID: "no.such.app"),
        ]
        for filter in filters {
            let expected = try reference.reports(filter)
            #expect(try store.reports(filter) == expected, "filter \(filter)")
            #expect(try store.groups(filter) == (try reference.groups(filter)), "filter \(filter)")
        }
        #expect(try store.reports(ReportFilter(since: middle)).count > 0)
        #expect(try store.reports(ReportFilter(since: middle)).count < all.count)
    }

    /// ID prefixes find one report or group, in either case, or say why not.
    static func prefixes(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let record = try #require(try store.allRecords().first { $0.id.contains(where: \.isUppercase) })
        #expect(try store.record(matchingPrefix: String(record.id.prefix(6)).lowercased()).id == record.id)
        #expect(throws: StoreError.self) { try store.record(matchingPrefix: "zzzz-none") }
        let ambiguous = #expect(throws: StoreError.self) { try store.record(matchingPrefix: "") }
        #expect(ambiguous?.code == .notFound)
        let group = try #require(try store.groups().first)
        #expect(try store.group(matchingPrefix: String(group.id.prefix(4)).uppercased()).id == group.id)
    }

    /// The index walk of `ReportStore.ids(startingWith:in:)` finds what the case-insensitive `LIKE` it replaces finds,
    /// in the same order, for IDs spelled in every case, with LIKE's wildcards and a character without case in them.
    static func prefixSearch(on kind: StoreKind) throws {
        // Given a store of 300 reports whose IDs are drawn from a small alphabet, so that many share a prefix
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let sample = try #require(try store.allRecords().first)
        let alphabet: [String] = ["a", "A", "b", "B", "1", "-", "_", "%", "→"]
        var random = SplitMix64(seed: 7)
        func word(_ length: Int) -> String { (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined() }
        var records: [ReportRecord] = []
        for index in 0..<300 {
            var record = sample
            record.id = word(1 + Int(random.next() % 6))
            record.sha256 = String(format: "%064x", 5000 + index)
            records.append(record)
        }
        _ = try store.write { db in try ReportStore.insert(records, rowsPerStatement: 1, in: db) }
        // When prefixes are looked up: stored IDs' own prefixes in another case, and random words
        var prefixes = records.prefix(60).map { record in
            String(record.id.prefix(1 + Int(random.next() % UInt64(record.id.count)))).lowercased()
        }
        prefixes += (0..<60).map { _ in word(1 + Int(random.next() % 4)) }
        for prefix in prefixes {
            // Then the walk finds the IDs the LIKE finds, in the same order
            let (walked, liked) = try store.read { db in
                (try ReportStore.ids(startingWith: prefix, in: db), try ReportStore.idsLike(prefix, in: db))
            }
            #expect(walked == liked, "prefix \(prefix)")
        }
    }

    /// A report stored twice is a duplicate; its ID with other bytes is kept under ID~hash, once.
    static func insertOutcomes(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let record = try #require(try store.allRecords().first)
        var other = record
        other.sha256 = String(repeating: "ab", count: 32)
        let alternative = record.id + "~" + other.sha256.prefix(12)
        let outcomes = try store.write { db in
            [try ReportStore.insert(record, in: db), try ReportStore.insert(other, in: db), try ReportStore.insert(other, in: db)]
        }
        #expect(outcomes == [.duplicate(record.id), .stored(alternative), .duplicate(alternative)])
        #expect(try store.record(id: alternative)?.sha256 == other.sha256)
    }

    /// A trail joins a report once; a second join changes nothing.
    static func joinsOnce(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let joined = try #require(try store.allRecords().first { $0.trailSource == .joined })
        let trail = try #require(try joined.decodedTrail())
        let waiting = try #require(try store.allRecords().first { $0.trailSource == .missing })
        #expect(try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: waiting.id, in: db) })
        #expect(
            try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: waiting.id, in: db) }
                == false)
        #expect(
            try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: joined.id, in: db) }
                == false)
        #expect(try store.record(id: waiting.id)?.trailSource == .joined)
        // A report whose trail was inferred from breadcrumbs takes a recorded one, and a crash without frames moves to
        // the group of the recorded trail's crash screen (SPEC section 15).
        var inferred = TestStores.copies(of: waiting, count: 1)[0]
        inferred.trailSource = .inferred
        inferred.trail = joined.trail
        inferred.signature = "MemoryTermination/SIGKILL @ screen:home"
        try store.write { db in _ = try ReportStore.insert(inferred, in: db) }
        #expect(try store.record(id: inferred.id)?.trailSource == .inferred)
        #expect(
            try store.write { db in try ReportStore.attach(DecodedTrail(trail), toReport: inferred.id, crashScreen: "item", in: db) })
        let replaced = try #require(try store.record(id: inferred.id))
        #expect(replaced.trailSource == .joined && replaced.signature == "MemoryTermination/SIGKILL @ screen:item")
        // A trail file joins the waiting report of its app and pid launched closest to its session's start, in one
        // statement, and the crash without frames moves to the group of its crash screen; then the next closest;
        // then none is left.
        // (The first copy's ID is the inferred report's above.)
        var waitingPair = Array(TestStores.copies(of: waiting, count: 3).dropFirst())
        for (index, offset) in [500, -100].enumerated() {
            waitingPair[index].bundleID = "com.example.closest"
            waitingPair[index].pid = 4242
            waitingPair[index].launchTime = 1_000_000 + Int64(offset)
            waitingPair[index].trail = nil
            waitingPair[index].trailSource = .missing
            waitingPair[index].signature = "EXC_BAD_ACCESS/SIGSEGV @ (no frames)"
        }
        try store.write { db in for record in waitingPair { _ = try ReportStore.insert(record, in: db) } }
        func joinClosest() throws -> String? {
            try store.write { db in
                try ReportStore.joinClosestReport(
                    DecodedTrail(trail), bundleID: "com.example.closest", pid: 4242, started: 1_000_000, tolerance: 2_000,
                    crashScreen: "settings", in: db)
            }
        }
        #expect(try joinClosest() == waitingPair[1].id)
        let moved = try #require(try store.record(id: waitingPair[1].id))
        #expect(moved.trailSource == .joined && moved.signature == "EXC_BAD_ACCESS/SIGSEGV @ screen:settings")
        #expect(try store.record(id: waitingPair[0].id)?.trailSource == .missing)
        #expect(try joinClosest() == waitingPair[0].id)
        #expect(try joinClosest() == nil)
    }

    /// Listings of more rows than a cursor page stream in order.
    static func streamsManyRows(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        let reference = try ReportStore(DatabaseQueue())
        try TestStores.ingestSamples(into: reference, folder: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let records = TestStores.copies(of: try #require(try reference.allRecords().first), count: 700)
        for target in [store, reference] {
            try target.write { db in for record in records { _ = try ReportStore.insert(record, in: db) } }
        }
        var streamed: [String] = []
        try store.forEachReport { report, _ in streamed.append(report.id) }
        #expect(streamed.count == 711)
        #expect(streamed == (try reference.reports().map(\.id)))
        #expect(try store.digest() == (try reference.digest()))
    }

    /// Values read back as written: both readers reuse a text equal to the one the row before held in the same
    /// column, so texts repeat, change by one byte, empty and come back; a NUL is read whole (PostgreSQL's text
    /// cannot hold one and keeps U+2400 instead).
    static func pathCounts(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        // Each key's count, as changes: SQLite keeps one row a key, PostgreSQL a row a change (a delta) that readers
        // sum. Paths hold what the packed form a server sends must not mistake for its own digits and colons.
        let paths = [
            #"["a:1","b"]"#, #"["12:34"]"#, "", #"["Café","日本","🧭"]"#, #"["a\"b","c\\d"]"#,
            "[" + (0..<120).map { #""screen\#($0)""# }.joined(separator: ",") + "]", #"[":"]"#, "1:", "0",
        ]
        struct Key: Hashable { var bundleID: String, inferred: Bool, path: String, manifest: String }
        var changes: [(key: Key, reports: Int64)] = []
        var random = SplitMix64(seed: 24)
        for (index, path) in paths.enumerated() {
            for bundleID in ["com.example.one", ""] {
                let key = Key(bundleID: bundleID, inferred: index.isMultiple(of: 2), path: path, manifest: index < 4 ? "m1" : "m2")
                let total =
                    index == 2 && bundleID.isEmpty ? 0 : Int64.random(in: 0..<1_000, using: &random) + (index == 1 ? 123_456_789_012 : 1)
                let removed = Int64.random(in: 0..<5, using: &random)
                changes += [(key, total + removed), (key, -removed)]
            }
        }
        // More paths of one app than a packed row holds.
        for index in 0..<4_500 {
            changes.append(
                (Key(bundleID: "com.example.many", inferred: false, path: #"["s\#(index)"]"#, manifest: "m1"), Int64(index % 7 + 1)))
        }
        var expected: [Key: Int] = [:]
        for change in changes { expected[change.key, default: 0] += Int(change.reports) }
        expected = expected.filter { $0.value > 0 }
        let rows = kind == .sqlite ? expected.map { ($0.key, Int64($0.value)) } : changes.map { ($0.key, $0.reports) }
        let all = rows + [(Key(bundleID: "x", inferred: false, path: "[]", manifest: "m1"), 7)]
        try store.write { db in
            for start in stride(from: 0, to: all.count, by: 500) {
                let chunk = all[start..<min(start + 500, all.count)]
                try db.execute(
                    "INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports) VALUES "
                        + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", "),
                    chunk.flatMap { key, reports -> [StoreValue] in
                        [
                            .text(key.bundleID == "x" ? "other group" : "group"), .text(key.bundleID), .integer(key.inferred ? 1 : 0),
                            .text(key.path), .text(key.manifest), .integer(reports),
                        ]
                    })
            }
        }
        var read: [Key: Int] = [:]
        for count in try store.pathCounts(signature: "group") {
            let key = Key(
                bundleID: count.key.bundleID, inferred: count.key.inferred, path: count.key.screensJSON, manifest: count.key.manifest)
            #expect(read[key] == nil, "\(key) read twice")
            read[key] = count.reports
        }
        #expect(read == expected)
    }

    static func valuesReadBack(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        let texts = ["app", "app", "apq", "app", "", "", "a\u{0}b", "a\u{0}b", "é日本", "é日本", "app"]
        let written: [[StoreValue]] = texts.enumerated().map { index, text in
            [
                .integer(Int64(index)), .text(text), index.isMultiple(of: 3) ? .null : .blob(Data([UInt8(index), 0, 1])),
                .real(Double(index) / 4), index == 5 ? .null : .text(index < 6 ? "same" : "other"),
            ]
        }
        let types =
            kind == .postgres ? ["BIGINT", "TEXT", "BYTEA", "DOUBLE PRECISION", "TEXT"] : ["INTEGER", "TEXT", "BLOB", "REAL", "TEXT"]
        let (rows, streamed) = try store.write { db in
            try db.execute("CREATE TABLE valueCheck (n \(types[0]), t \(types[1]), b \(types[2]), r \(types[3]), s \(types[4]))", [])
            for row in written { try db.execute("INSERT INTO valueCheck (n, t, b, r, s) VALUES (?, ?, ?, ?, ?)", row) }
            let sql = "SELECT n, t, b, r, s FROM valueCheck ORDER BY n"
            var streamed: [[StoreValue]] = []
            try db.forEachRow(sql, []) { streamed.append($0.values) }
            return (try db.rows(sql, []).map(\.values), streamed)
        }
        let expected = written.map { row in
            row.map { value -> StoreValue in
                guard kind == .postgres, case .text(let text) = value else { return value }
                return .text(text.replacingOccurrences(of: "\u{0}", with: "\u{2400}"))
            }
        }
        #expect(rows == expected)
        #expect(streamed == expected)
    }

    /// Reprocess resumes after its cursor and changes nothing the second time.
    static func reprocess(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: store, folder: folder)
        let before = try store.allRecords()
        try store.write { db in
            try db.execute("UPDATE report SET signature = 'old ' || signature")
            try db.execute("INSERT INTO reprocessCursor (job, lastID) VALUES ('reprocess', ?)", [.text(before.map(\.id).sorted()[3])])
        }
        let first = try store.reprocess(with: PayloadDeriver(decoder: try TestStores.codec()), batchSize: 3)
        #expect(first.resumed && first.examined == before.count - 4 && first.changed == before.count - 4)
        #expect(try store.allRecords().filter { $0.signature.hasPrefix("old ") }.count == 4, "the reports before the cursor are left")
        let second = try store.reprocess(with: PayloadDeriver(decoder: try TestStores.codec()), batchSize: 3)
        #expect(!second.resumed && second.examined == before.count && second.changed == 4)
        #expect(try store.allRecords() == before)
        #expect(try store.read { db in try db.value("SELECT COUNT(*) FROM reprocessCursor")?.integer } == 0)
    }

    /// Four stores writing the same reports at once, in other orders, store each once.
    static func concurrentWriters(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (store, name) = try TestStores.make(kind, in: folder)
        let reference = try ReportStore(DatabaseQueue())
        try TestStores.ingestSamples(into: reference, folder: folder)
        let records = TestStores.copies(of: try #require(try reference.allRecords().first), count: 400)
        let outcomes = LockedOutcomes()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let own = try TestStores.open(name)
                var random = SplitMix64(seed: UInt64(worker + 1))
                var shuffled = records
                shuffled.shuffle(using: &random)
                for start in stride(from: 0, to: shuffled.count, by: 50) {
                    let batch = shuffled[start..<start + 50]
                    let stored = try own.write { db in try batch.map { try ReportStore.insert($0, in: db) } }
                    outcomes.add(stored)
                }
            } catch {
                outcomes.fail("worker \(worker): \(error)")
            }
        }
        #expect(outcomes.failures.isEmpty, "\(outcomes.failures)")
        #expect(outcomes.stored.count == 400, "each report stored by exactly one worker")
        #expect(Set(outcomes.stored).count == 400)
        #expect(outcomes.duplicates == 1_200)
        #expect(try store.allRecords().count == 400)
    }

    /// A store copies to the other backend and back, verified.
    static func copiesAcross(on kind: StoreKind) throws {
        let folder = try TemporaryFolder("store-suite")
        defer { folder.remove() }
        let (source, _) = try TestStores.make(kind, in: folder)
        let (other, _) = try TestStores.make(kind == .sqlite ? .postgres : .sqlite, in: folder)
        let (back, _) = try TestStores.make(kind, in: folder)
        try TestStores.ingestSamples(into: source, folder: folder)
        let there = try StoreCopy.copy(from: source, to: other, batchSize: 4)
        #expect(there.verified && there.reportsCopied == 11 && there.trailsCopied == 1 && there.manifestsCopied == 1)
        let again = try StoreCopy.copy(from: source, to: other, batchSize: 4)
        #expect(again.verified && again.reportsCopied == 0, "a second copy finds everything there")
        let home = try StoreCopy.copy(from: other, to: back)
        #expect(home.verified)
        #expect(try back.allRecords() == (try source.allRecords()))
        #expect(try back.groups() == (try source.groups()))
    }
}

/// What concurrent writers stored, gathered under a lock.
final class LockedOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var stored: [String] = []
    private(set) var duplicates = 0
    private(set) var failures: [String] = []

    func add(_ outcomes: [ReportStore.InsertOutcome]) {
        lock.withLock {
            for outcome in outcomes {
                switch outcome {
                case .stored(let id): stored.append(id)
                case .duplicate: duplicates += 1
                }
            }
        }
    }

    func fail(_ why: String) { lock.withLock { failures.append(why) } }
}
