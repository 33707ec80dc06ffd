import CrashtrailCore
import CrashtrailReports

extension ReportStore {
    /// The group whose ID is `prefix` or the only one starting with it (SPEC section 13; letters compared without case).
    /// - Throws: `StoreError`: `not-found`, or `ambiguous` with the candidate IDs.
    public func group(matchingPrefix prefix: String) throws(StoreError) -> CrashGroup {
        let wanted = prefix.lowercased()
        guard !wanted.isEmpty else { throw StoreError(.notFound, "give a group ID or a prefix of one; `crashtrail list` lists them") }
        // The signatures alone (from the kept counts), then the counts of the one group that matches.
        let signatures = try read { db in
            try db.strings("SELECT signature FROM groupCount GROUP BY signature HAVING SUM(reports) > 0", [])
        }
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
        guard let group = try groups(ReportFilter(signature: only.signature)).first else {
            throw StoreError(.notFound, "the crash group \(only.id) has no reports now; another job moved them")
        }
        return group
    }

    /// The crash groups of the reports `filter` takes (every report by default): by count, then last seen (newest
    /// first), then signature (SPEC section 8).
    ///
    /// Every group, or one group by its signature, is read from the counts kept as reports arrive (`keptGroups(signature:)`);
    /// other filters count the reports they take.
    /// - Throws: `StoreError` (`database`).
    public func groups(_ filter: ReportFilter = .all) throws(StoreError) -> [CrashGroup] {
        var others = filter
        others.signature = nil
        guard others == .all else { return try countedGroups(filter) }
        return try keptGroups(signature: filter.signature)
    }

    /// The groups (every one, or the one with `signature`) from the count tables.
    ///
    /// Each group's first and last time are read from the two ends of its range of `report_group_recent`, so the cost
    /// follows the number of groups, not of reports. `QueryPlanTests` pins the plans.
    /// - Throws: `StoreError` (`database`).
    func keptGroups(signature: String?) throws(StoreError) -> [CrashGroup] {
        let arguments: [StoreValue] = signature.map { [.text($0)] } ?? []
        return try read { db in
            var versions: [String: [String]] = [:]
            for row in try db.rows(Self.keptVersionsSQL(signature: signature), arguments) {
                versions[try row.requiredString("signature"), default: []].append(try row.requiredString("version"))
            }
            return Self.ordered(
                try db.rows(Self.keptGroupsSQL(signature: signature, db.dialect), arguments).map { row in
                    try Self.group(row, versions: versions[try row.requiredString("signature")] ?? [])
                })
        }
    }

    /// The SQL of `keptGroups(signature:)`'s groups, and of their first and last times.
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

    /// The SQL of `keptGroups(signature:)`'s app versions.
    package static func keptVersionsSQL(signature: String?) -> String {
        """
        SELECT signature, version FROM groupVersionCount WHERE known = 1 \(signature == nil ? "" : "AND signature = ?")
        GROUP BY signature, version HAVING SUM(reports) > 0
        """
    }

    /// The groups of the reports `filter` takes, counted from those reports.
    /// - Throws: `StoreError` (`database`).
    func countedGroups(_ filter: ReportFilter) throws(StoreError) -> [CrashGroup] {
        let (condition, arguments) = filter.sql(dialect)
        let withTrail = TrailInfo.Source.bound(TrailInfo.Source.withTrail)
        return try read { db in
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
                var versionFilter = filter
                versionFilter.signature = signature
                let (versionCondition, versionArguments) = versionFilter.sql(db.dialect)
                let versions = try db.strings(
                    "SELECT DISTINCT appVersion FROM reportWithTrail WHERE \(versionCondition) AND appVersion IS NOT NULL",
                    versionArguments)
                groups.append(try Self.group(row, versions: versions))
            }
            return Self.ordered(groups)
        }
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
