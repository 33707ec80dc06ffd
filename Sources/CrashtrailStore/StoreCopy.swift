import CrashtrailCore
import Crypto
import Foundation

/// `crashtrail store copy`: every report, joined trail, manifest and project of one store written into another (SQLite to
/// PostgreSQL, back, or between two of a kind), then both read again to show they hold the same.
///
/// Rows keep their IDs; a row the destination already holds is left as it is, so a copy that stopped can be run
/// again. The reprocess cursor is not copied: it belongs to a job on the source.
package enum StoreCopy {
    /// What a copy did and what the verification read.
    package struct Summary: Hashable, Sendable {
        /// Reports written to the destination in this run (those it held already are not counted).
        package var reportsCopied = 0
        /// Joined trails written.
        package var trailsCopied = 0
        /// Manifests written.
        package var manifestsCopied = 0
        /// Projects (of `crashtrail serve`) written.
        package var projectsCopied = 0
        /// Grouping rules and merges written.
        package var groupingRulesCopied = 0
        /// What the source holds, read after the copy.
        package var source = StoreDigest()
        /// What the destination holds, read after the copy.
        package var destination = StoreDigest()
        /// Whether both hold exactly the same rows.
        package var verified: Bool { source == destination }
    }

    /// Copies `source` into `destination` in transactions of `batchSize` reports, then verifies both.
    /// - Parameters:
    ///   - source: the store to copy, read in one transaction.
    ///   - destination: the store to copy into; what it holds already is left as it is.
    ///   - batchSize: reports a write transaction holds.
    ///   - progress: called after each batch with the reports read so far.
    /// - Returns: what was copied, and both stores' digests.
    /// - Throws: `StoreError` from either store.
    package static func copy(
        from source: ReportStore, to destination: ReportStore, batchSize: Int = 500, progress: ((Int) -> Void)? = nil
    ) throws(StoreError) -> Summary {
        var summary = Summary()
        summary.manifestsCopied = try copyRows(
            of: "manifest", columns: ["dictionaryID", "app", "source", "text"], order: source.dialect.manifestOrder, from: source,
            to: destination)
        summary.projectsCopied = try copyRows(
            of: "project", columns: ["id", "name", "key", "revoked", "eventsPerMinute"], order: "id", from: source, to: destination)
        // Tokens go with their projects, as hashes: a copied store opens to the same tokens.
        try copyRows(
            of: "token", columns: ["id", "project", "scopes", "hash", "hint", "created", "revoked"], order: "id", from: source,
            to: destination)
        summary.groupingRulesCopied =
            try copyRows(of: "groupingRules", columns: ["project", "rules", "updated"], order: "project", from: source, to: destination)
            + copyRows(
                of: "groupMerge", columns: ["project", "signature", "mergedInto", "merged"], order: "project, signature", from: source,
                to: destination)
        var batch: [ReportRecord] = []
        var read = 0
        func flush() throws(StoreError) {
            guard !batch.isEmpty else { return }
            let records = batch
            summary.reportsCopied += try destination.write { db in
                try records.reduce(0) { copied, record in copied + (try db.execute(ReportRecord.insertSQL, record.storeValues)) }
            }
            read += batch.count
            batch.removeAll(keepingCapacity: true)
            progress?(read)
        }
        // The source is read in one transaction, so the copy is of one state of it; the destination is written a
        // batch at a time. Errors of the destination are kept and thrown after the read ends.
        var failure: StoreError?
        try source.read { db in
            try db.forEachRow("SELECT * FROM report ORDER BY id", []) { row in
                guard failure == nil else { return }
                batch.append(try ReportRecord(row: row))
                if batch.count >= batchSize {
                    do { try flush() } catch { failure = (error as? StoreError) ?? StoreError(.database, "\(error)") }
                }
            }
        }
        if let failure { throw failure }
        try flush()
        let trails = try source.read { db in
            try db.rows("SELECT id, steps, trail, dictionary, screenPath, pathManifest, digest FROM joinedTrail ORDER BY id", [])
        }
        for start in stride(from: 0, to: trails.count, by: max(1, batchSize)) {
            let slice = trails[start..<min(trails.count, start + max(1, batchSize))]
            summary.trailsCopied += try destination.write { db in
                try slice.reduce(0) { copied, row in
                    copied
                        + (try db.execute(
                            """
                            INSERT INTO joinedTrail (id, steps, trail, dictionary, screenPath, pathManifest, digest)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (id) DO NOTHING
                            """,
                            [
                                row["id"], row["steps"], row["trail"], row["dictionary"], row["screenPath"], row["pathManifest"],
                                row.data("digest").map(StoreValue.blob)
                                    ?? row.string("trail").map { .blob(ReportStore.trailDigest(Array($0.utf8))) } ?? .null,
                            ]))
                }
            }
        }
        destination.compact()
        summary.source = try source.digest()
        summary.destination = try destination.digest()
        return summary
    }

    /// Copies every row of a small table (manifests, projects) in one transaction each side; rows the destination
    /// holds already are left as they are.
    /// - Returns: how many rows were written.
    @discardableResult
    private static func copyRows(
        of table: String, columns: [String], order: String, from source: ReportStore, to destination: ReportStore
    ) throws(StoreError) -> Int {
        let list = columns.joined(separator: ", ")
        let rows = try source.read { db in try db.rows("SELECT \(list) FROM \(table) ORDER BY \(order)", []) }
        let insert = "INSERT INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) ON CONFLICT DO NOTHING"
        return try destination.write { db in
            try rows.reduce(0) { copied, row in copied + (try db.execute(insert, columns.map { row[$0] })) }
        }
    }
}

/// What a store holds, in a few numbers: its reports, joined trails and manifests, and a SHA-256 over every report
/// as it reads (payload, trail and every derived column) in ID order.
///
/// Two stores with the same digest hold the same.
package struct StoreDigest: Hashable, Sendable, CustomStringConvertible {
    package var reports = 0
    package var joinedTrails = 0
    package var manifests = 0
    /// Lower-case hex SHA-256 over every report's columns, by ID.
    package var sha256 = ""

    package init() {}

    package var description: String {
        "\(reports) report\(reports == 1 ? "" : "s"), \(joinedTrails) joined trail\(joinedTrails == 1 ? "" : "s"), \(manifests) manifest\(manifests == 1 ? "" : "s"), SHA-256 \(sha256.prefix(16))…"
    }
}

extension ReportStore {
    /// Reads the whole store to sum it up (``StoreDigest``); memory stays bounded.
    /// - Throws: `StoreError` (`database`).
    package func digest() throws(StoreError) -> StoreDigest {
        try read { db in
            var digest = StoreDigest()
            var hash = SHA256()
            try db.forEachRow("SELECT \(ReportColumn.list) FROM reportWithTrail ORDER BY id", []) { row in
                digest.reports += 1
                for value in row.values { Self.feed(value, into: &hash) }
            }
            digest.sha256 = Hex.lowercase(hash.finalize())
            digest.joinedTrails = Int(try db.value("SELECT COUNT(*) FROM joinedTrail")?.integer ?? 0)
            digest.manifests = Int(try db.value("SELECT COUNT(*) FROM manifest")?.integer ?? 0)
            return digest
        }
    }

    /// A value into the hash with its type and length, so no two rows read alike.
    private static func feed(_ value: StoreValue, into hash: inout SHA256) {
        func update(_ tag: UInt8, _ bytes: some Collection<UInt8>) {
            var header = [tag]
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { header.append(contentsOf: $0) }
            hash.update(data: header)
            hash.update(data: Array(bytes))
        }
        switch value {
        case .null: update(0, [])
        case .integer(let number): withUnsafeBytes(of: number.littleEndian) { update(1, Array($0)) }
        case .real(let number): withUnsafeBytes(of: number.bitPattern.littleEndian) { update(2, Array($0)) }
        // PostgreSQL stores U+0000 as U+2400 (its text cannot hold it), so both read alike here.
        case .text(let text): update(3, Array((text.holdsNUL ? text.replacingOccurrences(of: "\u{0}", with: "\u{2400}") : text).utf8))
        case .blob(let data): update(4, data)
        }
    }
}
