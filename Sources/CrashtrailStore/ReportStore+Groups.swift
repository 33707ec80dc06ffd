import CrashtrailCore
import CrashtrailReports

extension ReportStore {
    /// The group whose ID is `prefix` or the only one starting with it (SPEC section 13; letters compared without case),
    /// counted in `project` when given: another project's groups are neither found nor named as candidates.
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidate IDs.
    public func group(matchingPrefix prefix: String, project: ProjectScope = .all) throws(StoreError) -> CrashGroup {
        let wanted = prefix.lowercased()
        guard !wanted.isEmpty else { throw StoreError(.notFound, "give a group ID or a prefix of one; `crashtrail list` lists them") }
        // The signatures alone, then the counts of the one group that matches.
        let signatures = try read { db in try Self.signatures(of: project, in: db) }
        let candidates = signatures.map { (id: CrashGroup.id(ofSignature: $0), signature: $0) }.filter { $0.id.hasPrefix(wanted) }
            .sorted { $0.id < $1.id }
        guard let only = candidates.first else {
            throw StoreError(.notFound, "no crash group has an ID starting with \"\(prefix)\"; `crashtrail list` lists them")
        }
        guard candidates.count == 1 else {
            throw StoreError(
                .ambiguous, "the group ID prefix \"\(prefix)\" matches \(candidates.count) groups; give more of the ID",
                candidates: candidates.prefix(20).map(\.id))
        }
        guard let group = try groups(ReportFilter(signature: only.signature, project: project)).first else {
            throw StoreError(.notFound, "the crash group \(only.id) has no reports now; another job moved them")
        }
        return group
    }

    /// The crash groups of the reports `filter` takes (every report by default): by count, then last seen (newest
    /// first), then signature (SPEC section 8).
    ///
    /// Every group, or one group by its signature, is read from the counts kept as reports arrive (`keptGroups`); other
    /// filters count the reports they take.
    ///
    /// A project's groups (``ReportFilter/project``) are a group's reports in that project, so the same crash in two
    /// projects is a group in each (SPEC section 19). The first project's are the kept counts, less the other projects'
    /// reports; another project's are counted from its reports, which an index of their own finds. Each read is one
    /// transaction, so the counts and what is taken from them are of the same moment.
    /// - Throws: `StoreError` (`database`).
    public func groups(_ filter: ReportFilter = .all) throws(StoreError) -> [CrashGroup] {
        try read { db in try Self.groups(filter, in: db) }
    }

    /// ``groups(_:)`` inside a read transaction.
    static func groups(_ filter: ReportFilter, in db: any StoreTransaction) throws -> [CrashGroup] {
        var others = filter
        others.signature = nil
        others.project = .all
        guard others == .all else { return try countedGroups(filter.sql(db.dialect), in: db) }
        if try readsEveryReport(filter.project, in: db) { return try keptGroups(signature: filter.signature, in: db) }
        guard filter.project == .one(.first) else { return try countedGroups(filter.sql(db.dialect), in: db) }
        return try firstProjectGroups(signature: filter.signature, in: db)
    }

    /// Whether a read of `project` takes every stored report.
    ///
    /// It does when no project is named, or when it is the first project and no other project has a report (found by
    /// `report_project`, which holds only theirs). The kept counts then answer it.
    /// - Throws: `StoreError` (`database`).
    package func readsEveryReport(_ project: ProjectScope) throws(StoreError) -> Bool {
        try read { db in try Self.readsEveryReport(project, in: db) }
    }

    /// ``readsEveryReport(_:)`` inside a transaction.
    static func readsEveryReport(_ project: ProjectScope, in db: any StoreTransaction) throws -> Bool {
        switch project {
        case .all: return true
        case .unassigned: return false
        case .one(let project):
            guard project == .first else { return false }
            return try db.value("SELECT 1 FROM report WHERE project <> \(ProjectID.first) LIMIT 1", []) == nil
        }
    }

    /// The signatures of `project`'s groups, without their counts: the kept counts' signatures less those whose
    /// every report is another project's (the first project), or the signatures of its reports in `report_project`.
    static func signatures(of scope: ProjectScope, in db: any StoreTransaction) throws -> [String] {
        if scope == .unassigned { return [] }
        guard case .one(let project) = scope, !(try readsEveryReport(scope, in: db)) else {
            return try db.strings("SELECT signature FROM groupCount GROUP BY signature HAVING SUM(reports) > 0", [])
        }
        guard project == .first else {
            return try db.strings(
                "SELECT DISTINCT signature FROM report WHERE \(ReportFilter.projectCondition(project))", [StoreValue(project)])
        }
        var others: [String: Int] = [:]
        for row in try db.rows(
            "SELECT signature, COUNT(*) AS reports FROM report WHERE project <> \(ProjectID.first) GROUP BY signature", [])
        {
            others[try row.requiredString("signature")] = row.int("reports") ?? 0
        }
        return try db.rows("SELECT signature, CAST(SUM(reports) AS BIGINT) AS reports FROM groupCount GROUP BY signature", [])
            .compactMap { row in
                let signature = try row.requiredString("signature")
                return (row.int("reports") ?? 0) - (others[signature] ?? 0) > 0 ? signature : nil
            }
    }

    /// The first project's groups (every one, or the one with `signature`) in a store where other projects have
    /// reports: the kept counts, less the other projects' reports.
    ///
    /// The other projects' reports are read by their index (`report_project`), so the cost follows their number, not
    /// the first project's. A group some of whose reports are another project's has its first and last time read again
    /// from its own reports.
    static func firstProjectGroups(signature: String?, in db: any StoreTransaction) throws -> [CrashGroup] {
        let store = try keptGroups(signature: signature, in: db)
        var outside = ReportFilter(signature: signature).sql(db.dialect)
        outside.condition += " AND project <> \(ProjectID.first)"
        let taken = Dictionary(
            try countedGroups(outside, in: db).map { ($0.signature, $0) }, uniquingKeysWith: { first, _ in first })
        guard !taken.isEmpty else { return store }
        let versionsTaken = try otherProjectsVersionCounts(signature: signature, in: db)
        let storeVersions = try keptVersionCounts(signature: signature, in: db)
        var groups: [CrashGroup] = []
        for group in store {
            guard let other = taken[group.signature] else {
                groups.append(group)
                continue
            }
            var own = group
            own.count -= other.count
            own.withTrail -= other.withTrail
            own.inferred -= other.inferred
            guard own.count > 0 else { continue }
            own.versions = (storeVersions[group.signature] ?? [:]).compactMap { version, count in
                count - (versionsTaken[group.signature]?[version] ?? 0) > 0 ? version : nil
            }.sorted(by: CanonicalJSON.codePointPrecedes)
            let seen = try db.rows(seenInProjectSQL(db.dialect), [.text(group.signature), .text(group.signature)]).first
            own.firstSeen = seen?.string("firstSeen")
            own.lastSeen = seen?.string("lastSeen")
            groups.append(own)
        }
        return ordered(groups)
    }

    /// The SQL of the first and last time of a group's reports in the first project, with the signature as both
    /// arguments.
    private static func seenInProjectSQL(_ dialect: StoreDialect) -> String {
        let own = "signature = ? AND project = \(ProjectID.first) AND \(dialect.knownTime)"
        return """
            SELECT (SELECT time FROM report WHERE \(own) ORDER BY time LIMIT 1) AS firstSeen,
                (SELECT time FROM report WHERE \(own) ORDER BY time DESC LIMIT 1) AS lastSeen
            """
    }

    /// The kept counts of each group's reports by known app version (every group's, or the one with `signature`).
    private static func keptVersionCounts(signature: String?, in db: any StoreTransaction) throws -> [String: [String: Int]] {
        try versionCounts(
            """
            SELECT signature, version, CAST(SUM(reports) AS BIGINT) AS reports FROM groupVersionCount
            WHERE known = 1 \(signature == nil ? "" : "AND signature = ?") GROUP BY signature, version
            """, signature: signature, in: db)
    }

    /// The other projects' reports of each group by known app version (every group's, or the one with `signature`).
    private static func otherProjectsVersionCounts(signature: String?, in db: any StoreTransaction) throws -> [String: [String: Int]] {
        try versionCounts(
            """
            SELECT signature, appVersion AS version, COUNT(*) AS reports FROM report
            WHERE project <> \(ProjectID.first) \(signature == nil ? "" : "AND signature = ?") AND appVersion IS NOT NULL
            GROUP BY signature, appVersion
            """, signature: signature, in: db)
    }

    /// The counts `sql` reads (`signature`, `version`, `reports`; the signature as its argument when given), by
    /// signature and version.
    private static func versionCounts(_ sql: String, signature: String?, in db: any StoreTransaction) throws -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        for row in try db.rows(sql, signature.map { [.text($0)] } ?? []) {
            counts[try row.requiredString("signature"), default: [:]][try row.requiredString("version")] = row.int("reports") ?? 0
        }
        return counts
    }

    /// The groups (every one, or the one with `signature`) from the count tables.
    ///
    /// Each group's first and last time are read from the two ends of its range of `report_group_recent`, so the cost
    /// follows the number of groups, not of reports. `QueryPlanTests` pins the plans.
    static func keptGroups(signature: String?, in db: any StoreTransaction) throws -> [CrashGroup] {
        let arguments: [StoreValue] = signature.map { [.text($0)] } ?? []
        var versions: [String: [String]] = [:]
        for row in try db.rows(keptVersionsSQL(signature: signature), arguments) {
            versions[try row.requiredString("signature"), default: []].append(try row.requiredString("version"))
        }
        return ordered(
            try db.rows(keptGroupsSQL(signature: signature, db.dialect), arguments).map { row in
                try group(row, versions: versions[try row.requiredString("signature")] ?? [])
            })
    }

    /// The SQL of `keptGroups`'s groups, and of their first and last times.
    package static func keptGroupsSQL(signature: String?, _ dialect: StoreDialect) -> String {
        """
        SELECT c.signature, c.reports, c.withTrail, c.inferred,
            (SELECT time FROM report WHERE signature = c.signature AND \(dialect.knownTime) ORDER BY time LIMIT 1) AS firstSeen,
            (SELECT time FROM report WHERE signature = c.signature AND \(dialect.knownTime) ORDER BY time DESC LIMIT 1) AS lastSeen
        FROM (
            SELECT signature, CAST(SUM(reports) AS BIGINT) AS reports, CAST(SUM(withTrail) AS BIGINT) AS withTrail,
                CAST(SUM(inferred) AS BIGINT) AS inferred
            FROM groupCount \(signature == nil ? "" : "WHERE signature = ?") GROUP BY signature HAVING SUM(reports) > 0
        ) c
        """
    }

    /// The SQL of `keptGroups`'s app versions.
    package static func keptVersionsSQL(signature: String?) -> String {
        """
        SELECT signature, version FROM groupVersionCount WHERE known = 1 \(signature == nil ? "" : "AND signature = ?")
        GROUP BY signature, version HAVING SUM(reports) > 0
        """
    }

    /// The groups of the reports `filter` (a condition over `reportWithTrail` and its arguments) takes, counted from
    /// those reports.
    private static func countedGroups(
        _ filter: (condition: String, arguments: [StoreValue]), in db: any StoreTransaction
    ) throws -> [CrashGroup] {
        let (condition, arguments) = filter
        let withTrail = TrailInfo.Source.bound(TrailInfo.Source.withTrail)
        let rows = try db.rows(
            """
            SELECT signature, COUNT(*) AS reports, MIN(time) AS firstSeen, MAX(time) AS lastSeen,
                SUM(CASE WHEN trailSource IN \(withTrail.sql) THEN 1 ELSE 0 END) AS withTrail,
                SUM(CASE WHEN trailSource = ? THEN 1 ELSE 0 END) AS inferred
            FROM reportWithTrail WHERE \(condition) GROUP BY signature
            """, withTrail.values + [.text(TrailInfo.Source.inferred.rawValue)] + arguments)
        var groups: [CrashGroup] = []
        for row in rows {
            let signature = try row.requiredString("signature")
            let versions = try db.strings(
                "SELECT DISTINCT appVersion FROM reportWithTrail WHERE \(condition) AND signature = ? AND appVersion IS NOT NULL",
                arguments + [.text(signature)])
            groups.append(try Self.group(row, versions: versions))
        }
        return ordered(groups)
    }

    /// A group from a row of `signature`, `reports`, `firstSeen`, `lastSeen`, `withTrail` and `inferred`, with its app
    /// versions in any order.
    private static func group(_ row: StoreRow, versions: [String]) throws -> CrashGroup {
        CrashGroup(
            signature: try row.requiredString("signature"), count: row.int("reports") ?? 0, firstSeen: row.string("firstSeen"),
            lastSeen: row.string("lastSeen"), versions: versions.sorted(by: CanonicalJSON.codePointPrecedes),
            withTrail: row.int("withTrail") ?? 0, inferred: row.int("inferred") ?? 0)
    }

    /// Groups in list order: by count, then last seen (newest first), then signature.
    private static func ordered(_ groups: [CrashGroup]) -> [CrashGroup] {
        groups.sorted { lhs, rhs in
            if lhs.count != rhs.count { return lhs.count > rhs.count }
            if lhs.lastSeen != rhs.lastSeen { return (lhs.lastSeen ?? "") > (rhs.lastSeen ?? "") }
            return CanonicalJSON.codePointPrecedes(lhs.signature, rhs.signature)
        }
    }
}
