import CrashtrailCore
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore

/// Grouping rules and merges (`crashtrail grouping`, `crashtrail group merge`; SPEC section 21, docs/GROUPING.md).
extension TriageService {
    /// What a change of grouping did to the stored reports.
    package struct GroupingChange: Sendable {
        /// What the rules say that has no effect in crashtrail, each with its line.
        package var notes: [GroupingRulesError] = []
        /// The reports derived again, and how many moved.
        package var reprocessed = ReprocessSummary()
        /// The project the change applies to, when one was named.
        package var project: Project?
    }

    /// The project `idOrName` names, or nil (store-wide) when none is given.
    /// - Throws: `StoreError` (`notFound`) naming the projects there are.
    package func project(named idOrName: String?) throws(StoreError) -> Project? {
        try idOrName.map { name throws(StoreError) in try store.project(idOrName: name) }
    }

    /// Keeps `text` as the grouping rules of `project` (store-wide when nil), then derives again the stored reports
    /// they apply to, so every report follows them.
    /// - Parameters:
    ///   - text: the rules, in Sentry's syntax; empty to remove them.
    ///   - file: where they came from, named in errors.
    ///   - idOrName: a project's ID or name; nil for the store-wide rules.
    ///   - progress: called after each batch of reports derived again.
    /// - Returns: the rules' notes and the reports derived again.
    /// - Throws: `GroupingRulesError` at the first mistake (nothing is kept then); `StoreError`.
    package func setGroupingRules(
        _ text: String, file: String?, project idOrName: String?, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> GroupingChange {
        let rules = try GroupingRules(parsing: text, file: file)
        var change = GroupingChange(notes: rules.notes, project: try project(named: idOrName))
        try store.setGroupingRules(text, project: ProjectScope(change.project), at: time.rfc3339())
        change.reprocessed = try store.deriveAgain(
            ids: try store.reportIDs(project: ProjectScope(change.project)), with: try deriver(), progress: progress)
        return change
    }

    /// The grouping rules kept for `project` (store-wide when nil), as written; nil when there are none.
    /// - Throws: `StoreError`.
    package func groupingRules(project idOrName: String?) throws(StoreError) -> String? {
        try store.groupingRulesText(project: ProjectScope(try project(named: idOrName)))
    }

    /// Merges the groups `groups` (IDs or unique prefixes) into the first.
    ///
    /// Reports of the others are grouped under the first's signature from now on, also after `reprocess`; their
    /// stored reports are derived again.
    /// - Parameters:
    ///   - groups: two or more group IDs; the first keeps its ID.
    ///   - idOrName: a project's ID or name, to merge its reports only; nil for every report.
    ///   - progress: called after each batch of reports derived again.
    /// - Returns: the target group's signature, the merged signatures, and what moved.
    /// - Throws: `StoreError` (`notFound`, `ambiguous`).
    package func mergeGroups(
        _ groups: [String], project idOrName: String?, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> (into: String, merged: [String], change: GroupingChange) {
        let project = try project(named: idOrName)
        var signatures: [String] = []
        for prefix in groups {
            // A project's merge names its own groups.
            let signature = try store.group(matchingPrefix: prefix, project: ProjectScope(project)).signature
            if !signatures.contains(signature) { signatures.append(signature) }
        }
        guard signatures.count >= 2 else {
            throw StoreError(.notFound, "a merge needs two different groups, such as crashtrail group merge 1f2e3d 4c5b6a")
        }
        let target = signatures[0]
        let merged = Array(signatures.dropFirst())
        var change = GroupingChange(project: project)
        try store.addGroupMerge(merged, into: target, project: ProjectScope(change.project), at: time.rfc3339())
        let ids = try store.reportIDs(project: ProjectScope(change.project), signatures: merged)
        change.reprocessed = try store.deriveAgain(ids: ids, with: try deriver(), progress: progress)
        return (target, merged, change)
    }

    /// The merges kept, each with the IDs of the groups involved.
    /// - Throws: `StoreError`.
    package func groupMerges() throws(StoreError) -> [GroupMerge] {
        try store.groupMerges().filter(isShown)
    }

    /// Whether the reads show `merge`: every merge when they show every project; else the project's own and the
    /// store-wide ones, never another project's, whose signatures name that project's code.
    func isShown(_ merge: GroupMerge) -> Bool {
        project == .all || merge.project == .all || merge.project == project
    }
}
