import CrashtrailReports
import CrashtrailStore

/// What `show ID` names: a crash group or a report.
package enum StoredItem: Sendable {
    case group(CrashGroupDetail)
    case report(ReportRecord)
}

extension TriageService {
    /// The crash groups of the reports `filter` takes, in list order (SPEC section 8), at most `limit`.
    /// - Throws: `StoreError`.
    public func groups(_ filter: ReportFilter = .all, limit: Int? = nil) throws -> [CrashGroup] {
        Array(try store.groups(scoped(filter)).prefix(limit ?? Int.max))
    }

    /// The reports `filter` takes (of the group whose ID starts with `group`, when given), newest first, at most
    /// `limit`.
    /// - Throws: `StoreError` (`not-found` or `ambiguous` for the group prefix).
    public func reports(_ filter: ReportFilter = .all, group: String? = nil, limit: Int? = nil) throws -> [CrashReport] {
        var filter = scoped(filter)
        if let group { filter.signature = try store.group(matchingPrefix: group, project: filter.project).signature }
        return try store.reports(filter, limit: limit)
    }

    /// The group or report `id` names: a whole report ID always means the report; a prefix that starts both a
    /// group ID and a report ID is refused, naming both.
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidates.
    ///
    /// A group comes with its newest `reportLimit` reports (all of them when nil).
    package func item(_ id: String, reportLimit: Int? = nil) throws -> StoredItem {
        if let detail = try group(id, reportLimit: reportLimit) { return .group(detail) }
        return .report(try store.record(matchingPrefix: id, project: project))
    }

    /// `filter`, taking the reports of this service's ``project`` only when it reads one project.
    func scoped(_ filter: ReportFilter) -> ReportFilter {
        guard project != .all else { return filter }
        var scoped = filter
        scoped.project = project
        return scoped
    }

    /// The group `id` names, or nil when it names a report or nothing (the report lookup then says which).
    private func group(_ id: String, reportLimit: Int?) throws(StoreError) -> CrashGroupDetail? {
        if let exact = try store.record(id: id), project.includes(exact.project) { return nil }
        let detail: CrashGroupDetail
        do {
            detail = try store.groupDetail(matchingPrefix: id, reportLimit: reportLimit, project: project)
        } catch let error where error.code == .notFound {
            return nil
        }
        let report: ReportRecord?
        do {
            report = try store.record(matchingPrefix: id, project: project)
        } catch let error where error.code == .notFound {
            report = nil
        } catch let error where error.code == .ambiguous {
            throw StoreError(
                .ambiguous, "\"\(id)\" starts the group ID \(detail.group.id) and several report IDs; give more of the ID",
                candidates: [detail.group.id] + error.candidates)
        }
        if let report {
            throw StoreError(
                .ambiguous, "\"\(id)\" starts both the group ID \(detail.group.id) and the report ID \(report.id); give more of the ID",
                candidates: [detail.group.id, report.id])
        }
        return detail
    }
}
