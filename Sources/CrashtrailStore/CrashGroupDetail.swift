import CrashtrailCore
import CrashtrailReports

/// One crash group in full, as `crashtrail show GROUP` prints it: its counts by app version and by day, and its
/// reports.
public struct CrashGroupDetail: Hashable, Sendable {
    public var group: CrashGroup
    /// Reports per app version (`unknown` for reports without one), in code point order of the versions.
    public var byVersion: [(version: String, count: Int)]
    /// Reports per UTC day (`YYYY-MM-DD`, or `unknown` for reports without a time), oldest day first.
    public var byDay: [(day: String, count: Int)]
    /// The group's newest reports, newest first, then by ID: all of them, or the first of them when the reader asked
    /// for a page (``ReportStore/groupDetail(matchingPrefix:reportLimit:project:)``).
    public var reports: [CrashReport]
    /// How many of the group's reports `reports` leaves out.
    public var moreReports: Int { max(0, group.count - reports.count) }

    /// The group with counts made by the store.
    init(group: CrashGroup, byVersion: [String: Int], byDay: [String: Int], reports: [CrashReport]) {
        self.group = group
        self.reports = reports
        self.byVersion = byVersion.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { ($0.key, $0.value) }
        self.byDay = byDay.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { ($0.key, $0.value) }
    }

    /// The UTC day a report is counted on (`2026-11-02`), or `unknown` when it has no time.
    public static func day(of report: CrashReport) -> String {
        report.time.map { String($0.prefix(10)) } ?? "unknown"
    }

    public static func == (lhs: CrashGroupDetail, rhs: CrashGroupDetail) -> Bool {
        lhs.group == rhs.group && lhs.reports == rhs.reports
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(group)
        hasher.combine(reports)
    }
}

extension ReportStore {
    /// The group with this ID (or unique prefix), counted by version and day, with its newest `reportLimit` reports
    /// (all of them when nil); its reports in `project` only (every project's: `.all`).
    ///
    /// The counts are kept as reports arrive (migration `v11`, PostgreSQL `v7`), so a group of any size costs its
    /// versions, its days and one page of reports, never reading every report. A project's group in a store of several
    /// projects is counted from its reports.
    /// - Throws: `StoreError`: `not-found`, `ambiguous`, `database`.
    public func groupDetail(matchingPrefix prefix: String, reportLimit: Int? = nil, project: ProjectScope = .all) throws(StoreError)
        -> CrashGroupDetail
    {
        let group = try group(matchingPrefix: prefix, project: project)
        let counts = try read { db in
            func counts(_ sql: String, _ arguments: [StoreValue]) throws -> [String: Int] {
                var result: [String: Int] = [:]
                for row in try db.rows(sql, arguments) {
                    result[row.string("name") ?? "unknown", default: 0] += row.int("count") ?? 0
                }
                return result
            }
            let kept: [StoreValue] = [.text(group.signature)]
            guard case .one(let project) = project, !(try Self.readsEveryReport(.one(project), in: db)) else {
                return (versions: try counts(Self.keptVersionCountsSQL, kept), days: try counts(Self.keptDayCountsSQL, kept))
            }
            let own = "signature = ? AND \(ReportFilter.projectCondition(project))"
            let arguments = kept + [StoreValue(project)]
            return (
                versions: try counts(
                    "SELECT COALESCE(appVersion, 'unknown') AS name, COUNT(*) AS count FROM report WHERE \(own) GROUP BY appVersion",
                    arguments),
                days: try counts(
                    """
                    SELECT CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END AS name, COUNT(*) AS count
                    FROM report WHERE \(own) GROUP BY 1
                    """, arguments)
            )
        }
        return CrashGroupDetail(
            group: group, byVersion: counts.versions, byDay: counts.days,
            reports: try reports(ReportFilter(signature: group.signature, project: project), limit: reportLimit))
    }

    /// The SQL of a group's counts by app version (`unknown` for reports without one).
    package static let keptVersionCountsSQL = """
        SELECT CASE WHEN known = 1 THEN version ELSE 'unknown' END AS name, CAST(SUM(reports) AS BIGINT) AS count
        FROM groupVersionCount WHERE signature = ? GROUP BY known, version HAVING SUM(reports) > 0
        """

    /// The SQL of a group's counts by UTC day (`unknown` for reports without a time).
    package static let keptDayCountsSQL = """
        SELECT day AS name, CAST(SUM(reports) AS BIGINT) AS count FROM groupDayCount WHERE signature = ?
        GROUP BY day HAVING SUM(reports) > 0
        """
}
