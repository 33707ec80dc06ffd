import CrashtrailCore
public import CrashtrailReports

/// Which stored reports a listing takes: by app, app version, crash time and group (`crashtrail list` filters).
///
/// Every field narrows the reports; an empty filter takes them all. A report without a time is left out as soon as a
/// time bound is given.
public struct ReportFilter: Hashable, Sendable {
    /// The app's bundle ID, exactly.
    public var bundleID: String?
    /// The app version, exactly (`3.1.0`).
    public var appVersion: String?
    /// The earliest crash time kept, in milliseconds since 1970 UTC, inclusive.
    public var since: Int64?
    /// The latest crash time kept, in milliseconds since 1970 UTC, inclusive.
    public var until: Int64?
    /// The group's signature, exactly.
    public var signature: String?
    /// The projects whose reports it takes (SPEC section 19): every project's by default.
    public var project: ProjectScope

    public init(
        bundleID: String? = nil, appVersion: String? = nil, since: Int64? = nil, until: Int64? = nil, signature: String? = nil,
        project: ProjectScope = .all
    ) {
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.since = since
        self.until = until
        self.signature = signature
        self.project = project
    }

    /// A filter that takes every report.
    public static let all = ReportFilter()

    /// The SQL condition (`1 = 1` for none) over `reportWithTrail`'s columns, and its arguments.
    func sql(_ dialect: StoreDialect) -> (condition: String, arguments: [StoreValue]) {
        var conditions: [String] = []
        var arguments: [StoreValue] = []
        if let bundleID {
            conditions.append("bundleID = ?")
            arguments.append(.text(bundleID))
        }
        if let appVersion {
            conditions.append("appVersion = ?")
            arguments.append(.text(appVersion))
        }
        if let signature {
            conditions.append("signature = ?")
            arguments.append(.text(signature))
        }
        switch project {
        case .all: break
        case .one(let project):
            conditions.append(Self.projectCondition(project))
            arguments.append(StoreValue(project))
        case .unassigned:
            conditions.append("1 = 0")  // every report belongs to a project
        }
        // Stored times are RFC 3339 UTC with or without milliseconds, which do not sort as text across a second's
        // boundary; the dialect's instant (SQLite's julianday, a timestamptz in PostgreSQL) reads both.
        if let since {
            conditions.append("\(dialect.instant("time")) >= \(dialect.instant("?"))")
            arguments.append(.text(Timestamp.rfc3339(milliseconds: since)))
        }
        if let until {
            conditions.append("\(dialect.instant("time")) <= \(dialect.instant("?"))")
            arguments.append(.text(Timestamp.rfc3339(milliseconds: until)))
        }
        return (conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND "), arguments)
    }

    /// The condition that takes the reports of `project`, with one argument, the project's ID.
    ///
    /// The reports of a project other than the first are found by their index (`report_project`, kept only for them, so
    /// a store of one project pays nothing for it); the condition names that index's own condition so the planner
    /// uses it.
    package static func projectCondition(_ project: ProjectID) -> String {
        project == .first ? "project = ?" : "project = ? AND project <> \(ProjectID.first)"
    }
}
