import CrashtrailCore

/// One crash group in full, as `crashtrail show GROUP` prints it: its counts by app version and by day, and its
/// reports.
public struct CrashGroupDetail: Hashable, Sendable {
    public var group: CrashGroup
    /// Reports per app version (`unknown` for reports without one), in code point order of the versions.
    public var byVersion: [(version: String, count: Int)]
    /// Reports per UTC day (`YYYY-MM-DD`, or `unknown` for reports without a time), oldest day first.
    public var byDay: [(day: String, count: Int)]
    /// The group's reports, newest first, then by ID.
    public var reports: [CrashReport]

    /// Counts `reports`, which are `group`'s.
    public init(group: CrashGroup, reports: [CrashReport]) {
        self.group = group
        self.reports = reports
        var versions: [String: Int] = [:]
        var days: [String: Int] = [:]
        for report in reports {
            versions[report.app.version ?? "unknown", default: 0] += 1
            days[Self.day(of: report), default: 0] += 1
        }
        byVersion = versions.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { ($0.key, $0.value) }
        byDay = days.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { ($0.key, $0.value) }
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
    /// The group with this ID (or unique prefix), counted by version and day, with its reports.
    /// - Throws: `StoreError`: `not-found`, `ambiguous`, `database`.
    public func groupDetail(matchingPrefix prefix: String) throws(StoreError) -> CrashGroupDetail {
        let group = try group(matchingPrefix: prefix)
        return CrashGroupDetail(group: group, reports: try reports(ReportFilter(signature: group.signature)))
    }
}
