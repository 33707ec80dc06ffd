import CrashtrailCore
import CrashtrailReports
import Foundation

/// Reading stored reports: by ID or prefix, listed newest first, or one at a time from a cursor.
extension ReportStore {
    /// The report stored under exactly `id`.
    /// - Throws: `StoreError` (`database`).
    package func record(id: String) throws(StoreError) -> ReportRecord? {
        try read { db in try db.rows("SELECT * FROM reportWithTrail WHERE id = ?", [.text(id)]).first.map(ReportRecord.init(row:)) }
    }

    /// The report whose ID is `prefix` or the only one starting with it (letters compared without case, so a
    /// UUID prefix may be typed in lower case), of `project` when given: another project's reports are neither found
    /// nor named as candidates.
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidates.
    package func record(matchingPrefix prefix: String, project: ProjectScope = .all) throws(StoreError) -> ReportRecord {
        guard !prefix.isEmpty else {
            throw StoreError(.notFound, "give a report ID or a prefix of one; `crashtrail list --reports` lists them")
        }
        if let exact = try record(id: prefix), project.includes(exact.project) { return exact }
        let candidates = try read { db in try Self.ids(startingWith: prefix, project: project, in: db) }
        guard let only = candidates.first else {
            throw StoreError(.notFound, "no stored report has an ID starting with \"\(prefix)\"; `crashtrail list --reports` lists them")
        }
        guard candidates.count == 1 else {
            throw StoreError(
                .ambiguous,
                "the ID prefix \"\(prefix)\" matches \(candidates.count > 20 ? "more than 20" : String(candidates.count)) reports; give more of the ID",
                candidates: Array(candidates.prefix(20)))
        }
        guard let record = try record(id: only) else { throw StoreError(.notFound, "report \(only) disappeared while reading it") }
        return record
    }

    /// The IDs that start with `prefix` (of `project` only, when given), ASCII letters compared without case, in ID order.
    ///
    /// At most 21, so a caller can tell "more than 20".
    ///
    /// They are found by walking the primary key's index one character of `prefix` at a time, keeping each spelling
    /// of the prefix so far (a letter in either case) that begins some ID: each step reads the first ID at or after a
    /// spelling, and IDs that begin with it follow it in the index. A prefix thus costs a few index reads at any
    /// store size, where a case-insensitive `LIKE` reads every ID. Past 64 spellings alive at once (IDs spelled
    /// every which way), the `LIKE` reads them instead.
    package static func ids(startingWith prefix: String, project: ProjectScope = .all, in db: any StoreTransaction) throws -> [String] {
        // Every report belongs to a project: a read of none finds none.
        if project == .unassigned { return [] }
        /// The first ID at or after `spelling`, when it begins with `spelling` (byte by byte, the index's order).
        func firstID(from spelling: String) throws -> String? {
            let first = try db.strings(idsFromSQL(limit: 1), [.text(spelling)]).first
            return first.flatMap { $0.utf8.starts(with: spelling.utf8) ? $0 : nil }
        }
        var spellings = [""]
        for character in prefix {
            let variants =
                character.isASCII && character.isLetter
                ? [String(character).uppercased(), String(character).lowercased()] : [String(character)]
            var alive: [String] = []
            for spelling in spellings {
                for variant in variants where try firstID(from: spelling + variant) != nil { alive.append(spelling + variant) }
            }
            guard !alive.isEmpty else { return [] }
            guard alive.count <= 64 else { return try idsLike(prefix, project: project, in: db) }
            spellings = alive
        }
        var ids: [String] = []
        for spelling in spellings {
            if let project = project.project {
                // The project's own IDs among every ID that starts with the spelling: past the spelling's range is
                // its spelling followed by the highest code point, above every ID that continues it.
                ids += try db.strings(
                    "SELECT id FROM report WHERE id >= ? AND id < ? AND \(ReportFilter.projectCondition(project)) ORDER BY id LIMIT 21",
                    [.text(spelling), .text(spelling + "\u{10FFFF}"), StoreValue(project)])
                continue
            }
            for id in try db.strings(idsFromSQL(limit: 21), [.text(spelling)]) {
                guard id.utf8.starts(with: spelling.utf8) else { break }
                ids.append(id)
            }
        }
        return Array(ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(21))
    }

    /// The SQL of the first `limit` IDs at or after a text, in the index's order; `QueryPlanTests` pins its plan.
    package static func idsFromSQL(limit: Int) -> String { "SELECT id FROM report WHERE id >= ? ORDER BY id LIMIT \(limit)" }

    /// The IDs that start with `prefix` (of `project` only, when given), letters compared without case, by a
    /// case-insensitive `LIKE` that reads every ID: at most 21, in ID order.
    package static func idsLike(_ prefix: String, project: ProjectScope = .all, in db: any StoreTransaction) throws -> [String] {
        if project == .unassigned { return [] }
        let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let inProject = project.project.map { " AND " + ReportFilter.projectCondition($0) } ?? ""
        return try db.strings(
            "SELECT id FROM report WHERE id \(db.dialect.caseInsensitiveLike) ? ESCAPE '\\'\(inProject) ORDER BY id LIMIT 21",
            [.text(escaped + "%")] + (project.project.map { [StoreValue($0)] } ?? [])
        ).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// The reports `filter` takes (every report by default), newest first, then by ID (SPEC section 8), without
    /// payloads; the first `limit` of them when given.
    ///
    /// With no filter, or only a group's signature, the store reads an index in this order (`report_recent`,
    /// `report_group_recent`), so the first `limit` cost the same at any store size.
    /// - Throws: `StoreError` (`database`).
    public func reports(_ filter: ReportFilter = .all, limit: Int? = nil) throws(StoreError) -> [CrashReport] {
        let listing = Self.listing(filter, limit: limit, dialect)
        return try read { db in try db.rows(listing.sql, listing.arguments) }.map { row throws(StoreError) in
            try ReportRecord(row: row).report
        }
    }

    /// The SQL of a listing of reports, newest first (``reports(_:limit:)``), and its arguments; `QueryPlanTests` pins
    /// its plan.
    package static func listing(_ filter: ReportFilter, limit: Int?, _ dialect: StoreDialect) -> (sql: String, arguments: [StoreValue]) {
        let (condition, arguments) = filter.sql(dialect)
        let sql = """
            SELECT \(ReportColumn.listing(trail: false, dialect))
            FROM reportWithTrail WHERE \(condition)
            ORDER BY time IS NULL, time DESC, id\(limit == nil ? "" : " LIMIT ?")
            """
        return (sql, arguments + (limit.map { [.integer(Int64(max(0, $0)))] } ?? []))
    }

    /// Calls `body` with each report `filter` takes, newest first, then by ID, with its stored trail JSON and without
    /// its payload, one at a time from a cursor: memory stays bounded however many reports there are.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachReport(_ filter: ReportFilter = .all, _ body: (CrashReport, _ trailJSON: String?) throws -> Void) throws(StoreError)
    {
        try forEachRecord(filter) { record in try body(record.report, record.trail) }
    }

    /// Calls `body` with each stored row `filter` takes, as ``forEachReport(_:_:)`` orders and reads them, with what
    /// the row keeps beyond the report: its stored screen path and trail dictionary.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    package func forEachRecord(_ filter: ReportFilter = .all, _ body: (ReportRecord) throws -> Void) throws(StoreError) {
        let (condition, arguments) = filter.sql(dialect)
        try read { db in
            try db.forEachRow(
                """
                SELECT \(ReportColumn.listing(trail: true, db.dialect))
                FROM reportWithTrail WHERE \(condition)
                ORDER BY time IS NULL, time DESC, id
                """, arguments
            ) { row in try body(try ReportRecord(row: row)) }
        }
    }

    /// Every row, by ID, for comparing two stores.
    /// - Throws: `StoreError` (`database`).
    package func allRecords() throws(StoreError) -> [ReportRecord] {
        try read { db in try db.rows("SELECT * FROM reportWithTrail ORDER BY id", []).map(ReportRecord.init(row:)) }
    }
}
