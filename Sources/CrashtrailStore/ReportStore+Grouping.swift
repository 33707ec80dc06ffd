import CrashtrailCore
import CrashtrailReports

/// Grouping rules and merges, kept per project (`groupingRules` and `groupMerge`, migration `v17: grouping rules`;
/// PostgreSQL `v14: grouping rules`; SPEC section 21). Project 0 in the tables is store-wide (nil here).
extension ReportStore {
    /// The rules text kept for `project` (nil: store-wide), if any.
    /// - Throws: `StoreError` (`database`).
    package func groupingRulesText(project: Int?) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT rules FROM groupingRules WHERE project = ?", [.integer(Int64(project ?? 0))])?.text }
    }

    /// Keeps `text` as the rules of `project` (nil: store-wide), replacing any; an empty text removes them.
    ///
    /// The caller checks the text first (`GroupingRules(parsing:file:)`).
    /// - Throws: `StoreError` (`database`).
    package func setGroupingRules(_ text: String, project: Int?, at time: String) throws(StoreError) {
        try write { db in
            if text.allSatisfy(\.isWhitespace) {
                try db.execute("DELETE FROM groupingRules WHERE project = ?", [.integer(Int64(project ?? 0))])
            } else {
                try db.execute(
                    """
                    INSERT INTO groupingRules (project, rules, updated) VALUES (?, ?, ?)
                    ON CONFLICT (project) DO UPDATE SET rules = excluded.rules, updated = excluded.updated
                    """, [.integer(Int64(project ?? 0)), .text(text), .text(time)])
            }
        }
    }

    /// Every merge kept: the project (nil: store-wide), the merged signature and the one it was merged into, by
    /// project and signature.
    /// - Throws: `StoreError` (`database`).
    package func groupMerges() throws(StoreError) -> [GroupMerge] {
        try read { db in
            try db.rows("SELECT project, signature, mergedInto, merged FROM groupMerge ORDER BY project, signature", []).map { row in
                let project = row.int64("project") ?? 0
                return GroupMerge(
                    project: project == 0 ? nil : Int(project), signature: row.string("signature") ?? "",
                    into: row.string("mergedInto") ?? "", time: row.string("merged") ?? "")
            }
        }
    }

    /// Keeps the merge of `signatures` into `target` for `project` (nil: store-wide).
    ///
    /// A signature merged earlier into one of `signatures` now goes to `target` too, and `target` itself is no longer
    /// merged into anything.
    /// - Throws: `StoreError` (`database`).
    package func addGroupMerge(_ signatures: [String], into target: String, project: Int?, at time: String) throws(StoreError) {
        let scope = Int64(project ?? 0)
        try write { db in
            try db.execute("DELETE FROM groupMerge WHERE project = ? AND signature = ?", [.integer(scope), .text(target)])
            for signature in signatures where signature != target {
                try db.execute(
                    "UPDATE groupMerge SET mergedInto = ? WHERE project = ? AND mergedInto = ?",
                    [.text(target), .integer(scope), .text(signature)])
                try db.execute(
                    """
                    INSERT INTO groupMerge (project, signature, mergedInto, merged) VALUES (?, ?, ?, ?)
                    ON CONFLICT (project, signature) DO UPDATE SET mergedInto = excluded.mergedInto, merged = excluded.merged
                    """, [.integer(scope), .text(signature), .text(target), .text(time)])
            }
        }
    }

    /// The rules and merges ingest, serve and reprocess apply, parsed.
    /// - Throws: `StoreError` (`database`), also when kept rules no longer parse (written by a later version).
    package func groupingRuleBook() throws(StoreError) -> GroupingRuleBook {
        let texts = try read { db in
            try db.rows("SELECT project, rules FROM groupingRules ORDER BY project", []).map { row in
                (project: row.int64("project") ?? 0, text: row.string("rules") ?? "")
            }
        }
        var rules: [Int?: GroupingRules] = [:]
        for (project, text) in texts {
            let scope: Int? = project == 0 ? nil : Int(project)
            do {
                rules[scope] = try GroupingRules(parsing: text)
            } catch {
                let owner = scope.map { "project \($0)" } ?? "the store"
                throw StoreError(
                    .database, "the grouping rules kept for \(owner) do not parse (\(error)); set them again with crashtrail grouping set")
            }
        }
        var merges: [Int?: [String: String]] = [:]
        for merge in try groupMerges() { merges[merge.project, default: [:]][merge.signature] = merge.into }
        return GroupingRuleBook(rules: rules, merges: merges)
    }

    /// The IDs of the stored reports of `project` (every report when nil), in ID order; only those with one of
    /// `signatures` when given.
    /// - Throws: `StoreError` (`database`).
    package func reportIDs(project: Int?, signatures: [String]? = nil) throws(StoreError) -> [String] {
        var conditions: [String] = []
        var arguments: [StoreValue] = []
        if let project {
            conditions.append(ReportFilter.projectCondition(project))
            arguments.append(.integer(Int64(project)))
        }
        if let signatures {
            guard !signatures.isEmpty else { return [] }
            conditions.append("signature IN (\(signatures.map { _ in "?" }.joined(separator: ", ")))")
            arguments += signatures.map { .text($0) }
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try read { db in try db.strings("SELECT id FROM report\(filter) ORDER BY id", arguments) }
    }
}

/// One kept merge: reports with `signature` are grouped under `into`.
package struct GroupMerge: Hashable, Sendable {
    /// The project it applies to; nil for every report without rules of its project's own.
    package var project: Int?
    /// The merged signature.
    package var signature: String
    /// The signature it was merged into.
    package var into: String
    /// When it was merged (RFC 3339).
    package var time: String
}
