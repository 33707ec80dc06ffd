import CrashtrailCore
import CrashtrailReports

/// Grouping rules and merges, kept per project (`groupingRules` and `groupMerge`, migration `v17: grouping rules`;
/// PostgreSQL `v14: grouping rules`; SPEC section 21): one project's, or the store-wide ones (`.all`, kept under 0).
extension ReportStore {
    /// The rules text kept for `scope` (one project, or `.all` for the store-wide rules), if any.
    /// - Throws: `StoreError` (`database`).
    package func groupingRulesText(project scope: ProjectScope) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT rules FROM groupingRules WHERE project = ?", [StoreValue(scope)])?.text }
    }

    /// Keeps `text` as the rules of `scope` (one project, or `.all` for the store-wide rules), replacing any; an
    /// empty text removes them.
    ///
    /// The caller checks the text first (`GroupingRules(parsing:file:)`).
    /// - Throws: `StoreError` (`database`).
    package func setGroupingRules(_ text: String, project scope: ProjectScope, at time: String) throws(StoreError) {
        try write { db in
            if text.allSatisfy(\.isWhitespace) {
                try db.execute("DELETE FROM groupingRules WHERE project = ?", [StoreValue(scope)])
            } else {
                try db.execute(
                    """
                    INSERT INTO groupingRules (project, rules, updated) VALUES (?, ?, ?)
                    ON CONFLICT (project) DO UPDATE SET rules = excluded.rules, updated = excluded.updated
                    """, [StoreValue(scope), .text(text), .text(time)])
            }
        }
    }

    /// Every merge kept: its scope (one project, or `.all` for the store-wide ones), the merged signature and the one
    /// it was merged into, by project and signature.
    /// - Throws: `StoreError` (`database`).
    package func groupMerges() throws(StoreError) -> [GroupMerge] {
        try read { db in
            try db.rows("SELECT project, signature, mergedInto, merged FROM groupMerge ORDER BY project, signature", []).map {
                row throws in
                GroupMerge(
                    project: try row.scope(zero: .all), signature: try row.requiredString("signature"),
                    into: try row.requiredString("mergedInto"), time: try row.requiredString("merged"))
            }
        }
    }

    /// Keeps the merge of `signatures` into `target` for `scope` (one project, or `.all` for the store-wide ones).
    ///
    /// A signature merged earlier into one of `signatures` now goes to `target` too, and `target` itself is no longer
    /// merged into anything.
    /// - Throws: `StoreError` (`database`).
    package func addGroupMerge(_ signatures: [String], into target: String, project scope: ProjectScope, at time: String) throws(StoreError)
    {
        let scope = StoreValue(scope)
        try write { db in
            try db.execute("DELETE FROM groupMerge WHERE project = ? AND signature = ?", [scope, .text(target)])
            for signature in signatures where signature != target {
                try db.execute(
                    "UPDATE groupMerge SET mergedInto = ? WHERE project = ? AND mergedInto = ?", [.text(target), scope, .text(signature)])
                try db.execute(
                    """
                    INSERT INTO groupMerge (project, signature, mergedInto, merged) VALUES (?, ?, ?, ?)
                    ON CONFLICT (project, signature) DO UPDATE SET mergedInto = excluded.mergedInto, merged = excluded.merged
                    """, [scope, .text(signature), .text(target), .text(time)])
            }
        }
    }

    /// The rules and merges ingest, serve and reprocess apply, parsed.
    /// - Throws: `StoreError` (`database`), also when kept rules no longer parse (written by a later version).
    package func groupingRuleBook() throws(StoreError) -> GroupingRuleBook {
        let texts = try read { db in
            try db.rows("SELECT project, rules FROM groupingRules ORDER BY project", []).map { row throws in
                (scope: try row.scope(zero: .all), text: try row.requiredString("rules"))
            }
        }
        var rules: [ProjectScope: GroupingRules] = [:]
        for (scope, text) in texts {
            do {
                rules[scope] = try GroupingRules(parsing: text)
            } catch {
                let owner = scope == .all ? "the store" : scope.description
                throw StoreError(
                    .database, "the grouping rules kept for \(owner) do not parse (\(error)); set them again with crashtrail grouping set")
            }
        }
        var merges: [ProjectScope: [String: String]] = [:]
        for merge in try groupMerges() { merges[merge.project, default: [:]][merge.signature] = merge.into }
        return GroupingRuleBook(rules: rules, merges: merges)
    }

    /// The IDs of the stored reports of `project` (every project's: `.all`), in ID order; only those with one of
    /// `signatures` when given.
    /// - Throws: `StoreError` (`database`).
    package func reportIDs(project: ProjectScope, signatures: [String]? = nil) throws(StoreError) -> [String] {
        var conditions: [String] = []
        var arguments: [StoreValue] = []
        switch project {
        case .all: break
        case .one(let project):
            conditions.append(ReportFilter.projectCondition(project))
            arguments.append(StoreValue(project))
        case .unassigned: return []
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
    /// Where it applies: one project's reports, or (`.all`) every report without merges of its project's own.
    package var project: ProjectScope
    /// The merged signature.
    package var signature: String
    /// The signature it was merged into.
    package var into: String
    /// When it was merged (RFC 3339).
    package var time: String
}
