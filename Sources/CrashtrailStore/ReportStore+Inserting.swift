import CrashtrailReports
import Foundation

/// Storing reports: each payload once, under its own ID (SPEC section 8).
extension ReportStore {
    /// What storing one payload did.
    package enum InsertOutcome: Hashable, Sendable {
        /// Stored under this ID (the payload's own, or `ID~hash` when that ID held other bytes).
        case stored(String)
        /// These bytes are already stored under this ID.
        case duplicate(String)
    }

    /// Stores `record` unless its bytes are already stored in its project; a payload whose ID is taken by other bytes
    /// is kept under `ID~` plus the first 12 hex digits of its SHA-256, and one whose ID is taken in another project
    /// under `ID~pN`, N its project (SPEC sections 8 and 19).
    ///
    /// The primary key decides, not a look-up before the insert: jobs storing the same report at the same moment
    /// store it once, the others see a duplicate.
    /// - Parameters:
    ///   - record: the report.
    ///   - idDecides: whether a taken ID in the report's project means the same report sent again, whatever its bytes.
    ///   - db: the write transaction.
    /// - Returns: what storing it did.
    /// - Throws: the backend's error.
    package static func insert(_ record: ReportRecord, idDecides: Bool = false, in db: any StoreTransaction) throws -> InsertOutcome {
        var values = record.storeValues
        var id = record.id
        // Each turn either stores, answers, or moves to a longer ID, so a chain of IDs planted in other projects ends.
        for _ in 0..<8 {
            if try db.execute(ReportRecord.insertSQL, values) > 0 { return .stored(id) }
            guard let existing = try db.rows("SELECT sha256, project FROM report WHERE id = ?", [.text(id)]).first else {
                return .duplicate(id)
            }
            if existing.project() != record.project {
                id += "~p\(record.project)"
            } else if idDecides || existing.string("sha256") == record.sha256 {
                return .duplicate(id)
            } else if !id.hasSuffix("~" + record.sha256.prefix(12)) {
                id += "~" + record.sha256.prefix(12)
            } else {
                return .duplicate(id)
            }
            values[0] = .text(id)
        }
        // Eight IDs taken in turn are no accident: another project's client planted them. The report is kept under an
        // ID nobody can have taken, rather than answered as a duplicate and lost.
        id = record.id + "~p\(record.project)~" + UUID().uuidString.lowercased()
        values[0] = .text(id)
        try db.execute(ReportRecord.insertSQL, values)
        return .stored(id)
    }

    /// Stores `records` as ``insert(_:idDecides:in:)`` stores each, in multi-row statements where the backend gains from them.
    ///
    /// `StoreDialect.rowsPerInsert` says where: on PostgreSQL, one round trip for up to 256 reports instead of one
    /// each, which is what a worker's rate is made of. SQLite runs its prepared one-row statement for each.
    ///
    /// A report whose ID the statement did not insert (taken before, or twice in the batch) goes through
    /// ``insert(_:idDecides:in:)`` after, which tells a duplicate from other bytes under the same ID.
    /// - Parameters:
    ///   - records: the reports, in order.
    ///   - idDecides: whether a taken ID means the same report sent again (a Sentry event's retry), counted as a
    ///     duplicate whatever its bytes, instead of other bytes kept under `ID~HASH`.
    ///   - rowsPerStatement: reports per statement; the backend's choice when nil.
    ///   - db: the write transaction.
    /// - Returns: each report's outcome, in order.
    /// - Throws: the backend's error.
    package static func insert(
        _ records: [ReportRecord], idDecides: Bool = false, rowsPerStatement: Int? = nil, in db: any StoreTransaction
    ) throws -> [InsertOutcome] {
        let rowsPerStatement = max(1, rowsPerStatement ?? db.dialect.rowsPerInsert)
        guard rowsPerStatement > 1 else { return try records.map { try insert($0, idDecides: idDecides, in: db) } }
        var outcomes: [InsertOutcome] = []
        outcomes.reserveCapacity(records.count)
        var start = 0
        while start < records.count {
            let slice = records[start..<min(records.count, start + rowsPerStatement)]
            start = slice.endIndex
            // An ID holding U+0000 does not come back from PostgreSQL's RETURNING as it went in (U+2400 is kept in
            // its place): those go alone.
            let batched = slice.filter { !$0.id.holdsNUL }
            var inserted: Set<String> = []
            if !batched.isEmpty {
                let sql =
                    "INSERT INTO report (\(ReportColumn.list)) VALUES "
                    + Array(repeating: ReportRecord.valuesPlaceholders, count: batched.count).joined(separator: ", ")
                    + " ON CONFLICT (id) DO NOTHING RETURNING id"
                inserted = Set(try db.rows(sql, batched.flatMap(\.storeValues)).compactMap { $0.values.first?.text })
            }
            for record in slice {
                if record.id.holdsNUL {
                    outcomes.append(try insert(record, idDecides: idDecides, in: db))
                } else if inserted.remove(record.id) != nil {
                    outcomes.append(.stored(record.id))
                } else {
                    // The statement found the ID taken: the same report again, other bytes under its ID, or a report
                    // of another project.
                    outcomes.append(try insert(record, idDecides: idDecides, in: db))
                }
            }
        }
        return outcomes
    }

    /// The ID of a report of `project` whose payload has exactly these bytes (by SHA-256), if any.
    /// - Throws: `StoreError` (`database`).
    package func reportID(payloadDigest digest: String, project: ProjectID = .first) throws(StoreError) -> String? {
        try read { db in
            try db.value(
                "SELECT id FROM report WHERE sha256 = ? AND project = ? LIMIT 1", [.text(digest), StoreValue(project)]
            )?.text
        }
    }

    /// The first eight bytes of every stored payload digest (``digestPrefix(_:)``): a set that answers "certainly
    /// not stored" for a new payload without a read transaction.
    /// - Throws: `StoreError` (`database`).
    package func storedDigestPrefixes() throws(StoreError) -> Set<UInt64> {
        try read { db in
            var prefixes = Set<UInt64>()
            try db.forEachRow("SELECT sha256 FROM report", []) { row in
                if let digest = row[0].text, let prefix = Self.digestPrefix(digest) { prefixes.insert(prefix) }
            }
            return prefixes
        }
    }

    /// The first sixteen hex digits of a digest as a number, or nil when they are not hex digits.
    package static func digestPrefix(_ digest: String) -> UInt64? {
        var value: UInt64 = 0
        var count = 0
        for byte in digest.utf8.prefix(16) {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
            count += 1
        }
        return count == 16 ? value : nil
    }
}
