import CrashtrailCore
import CrashtrailReports

extension ReportStore {
    /// What reports with a trail share for `paths`: their app, whether their trail was inferred, and the screen path
    /// stored with them (an empty text for what a report lacks).
    package struct PathKey: Hashable, Sendable {
        package var bundleID: String
        package var inferred: Bool
        package var screensJSON: String
        package var manifest: String

        package init(bundleID: String, inferred: Bool, screensJSON: String, manifest: String) {
            self.bundleID = bundleID
            self.inferred = inferred
            self.screensJSON = screensJSON
            self.manifest = manifest
        }

        /// The app, or nil when the reports have none.
        package var app: String? { bundleID.isEmpty ? nil : bundleID }
        /// Calls `body` with the UTF-8 bytes of the names of `screenPath?.lastScreens(count, replayedWith: manifest)`
        /// and returns true, when the stored path holds them in the form the store writes for names without escapes;
        /// returns false, without calling it, when it does not (``screenPath`` then reads them, or tells they must be
        /// replayed).
        package func withLastScreens(_ count: Int, replayedWith manifest: Manifest, _ body: ([UnsafeBufferPointer<UInt8>]) -> Void) -> Bool
        {
            storedPathServes(count, replayedWith: manifest) && StoredScreenPath.withLastNames(screensJSON, count: count, body)
        }

        /// Whether the stored path was replayed with `manifest` and holds `count` screens.
        private func storedPathServes(_ count: Int, replayedWith manifest: Manifest) -> Bool {
            !screensJSON.isEmpty && !self.manifest.isEmpty && self.manifest == manifest.fingerprint && count <= ScreenPath.storedCount
        }

        /// The stored screen path, or nil when the reports have none that reads.
        package var screenPath: StoredScreenPath? {
            StoredScreenPath(screensJSON: screensJSON.isEmpty ? nil : screensJSON, manifest: manifest.isEmpty ? nil : manifest)
        }
    }

    /// How many reports with a trail share one ``PathKey``.
    package struct PathCount: Sendable {
        package var key: PathKey
        package var reports: Int
    }

    /// What `paths` reads of a report it must replay: its ID and key.
    package struct PathRow: Sendable {
        package var id: String
        package var key: PathKey
    }

    /// The reports with a trail (of the group with `signature`, or of every group), counted by ``PathKey``.
    ///
    /// The counts are kept as reports arrive (migration `v12`, PostgreSQL `v9`), so a group costs what its distinct
    /// paths cost, whatever the number of reports that share them, and the caller decodes each different path once.
    /// - Throws: `StoreError` (`database`).
    package func pathCounts(signature: String?) throws(StoreError) -> [PathCount] {
        var counts: [PathCount] = []
        try forEachPathCount(signature: signature) { counts.append($0) }
        return counts
    }

    /// Calls `body` with each of ``pathCounts(signature:)``'s counts as it is read, in no promised order.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    ///
    /// With `project`, only that project's reports count; in a store of several projects they are counted from the
    /// reports, as the kept counts are the whole store's.
    package func forEachPathCount(signature: String?, project: ProjectScope = .all, _ body: (PathCount) throws -> Void) throws(StoreError) {
        func count(_ row: StoreRow) throws -> PathCount {
            PathCount(
                key: PathKey(
                    bundleID: try row.requiredString("bundleID"), inferred: row.int("inferred") == 1,
                    screensJSON: try row.requiredString("screenPath"), manifest: try row.requiredString("pathManifest")),
                reports: row.int("reports") ?? 0)
        }
        if !(try readsEveryReport(project)) {
            let (condition, arguments) = ReportFilter(signature: signature, project: project).sql(dialect)
            let withTrail = TrailInfo.Source.bound(TrailInfo.Source.withTrail)
            let inferred = TrailInfo.Source.inferred.sqlLiteral
            try read { db in
                try db.forEachRow(
                    """
                    SELECT COALESCE(bundleID, '') AS bundleID, CASE WHEN trailSource = \(inferred) THEN 1 ELSE 0 END AS inferred,
                        COALESCE(screenPath, '') AS screenPath, COALESCE(pathManifest, '') AS pathManifest, COUNT(*) AS reports
                    FROM reportWithTrail WHERE \(condition) AND trailSource IN \(withTrail.sql) GROUP BY 1, 2, 3, 4
                    """, arguments + withTrail.values
                ) { try body(try count($0)) }
            }
            return
        }
        let sql = Self.pathCountsSQL(signature: signature, dialect)
        let arguments: [StoreValue] = signature.map { [.text($0)] } ?? []
        try read { db in
            // A group's counts come in one statement where each statement, and each page of a cursor, is a round trip
            // to a server, packed a few rows for all (``PackedPathCounts``); otherwise, and for every group's (about
            // one per report with a trail), row by row.
            guard Self.packsPathCounts(signature: signature, dialect) else {
                return try db.forEachRow(sql, arguments) { try body(try count($0)) }
            }
            for row in try db.rows(sql, arguments) {
                let bundleID = try row.requiredString("bundleID")
                let inferred = row.int("inferred") == 1
                let manifest = try row.requiredString("pathManifest")
                try PackedPathCounts.forEach(in: try row.requiredString("paths")) { screensJSON, reports in
                    try body(
                        PathCount(
                            key: PathKey(bundleID: bundleID, inferred: inferred, screensJSON: screensJSON, manifest: manifest),
                            reports: reports))
                }
            }
        }
    }

    /// Whether a group's counts come packed (``PackedPathCounts``): from a server, where each statement is a round trip.
    private static func packsPathCounts(signature: String?, _ dialect: StoreDialect) -> Bool {
        signature != nil && dialect.statementsAreRoundTrips
    }

    /// The SQL of `pathCounts(signature:)`; `QueryPlanTests` pins its plan.
    ///
    /// A group's rows are read as they are where a key has one row (SQLite); elsewhere, and for every group at once,
    /// the rows of a key are summed. A group's counts on a server come packed (``PackedPathCounts``).
    package static func pathCountsSQL(signature: String?, _ dialect: StoreDialect) -> String {
        let columns = "bundleID, inferred, screenPath, pathManifest"
        if packsPathCounts(signature: signature, dialect) { return PackedPathCounts.sql }
        guard signature != nil, dialect.oneRowPerCount else {
            return """
                SELECT \(columns), CAST(SUM(reports) AS BIGINT) AS reports
                FROM groupPathCount\(signature == nil ? "" : " WHERE signature = ?")
                GROUP BY \(columns) HAVING SUM(reports) > 0
                """
        }
        return "SELECT \(columns), reports FROM groupPathCount WHERE signature = ? AND reports > 0"
    }

    /// Calls `body` with each report with a trail that `filter` takes and whose key is one of `keys`, in no promised
    /// order, from one cursor: the reports `paths` must replay.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    package func forEachPathRow(_ filter: ReportFilter, keys: Set<PathKey>, _ body: (PathRow) throws -> Void) throws(StoreError) {
        guard !keys.isEmpty else { return }
        let (condition, arguments) = filter.sql(dialect)
        let withTrail = TrailInfo.Source.bound(TrailInfo.Source.withTrail)
        try read { db in
            try db.forEachRow(
                """
                SELECT id, bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail
                WHERE \(condition) AND trailSource IN \(withTrail.sql)
                """, arguments + withTrail.values
            ) { row in
                let key = PathKey(
                    bundleID: row.string("bundleID") ?? "", inferred: row.string("trailSource") == TrailInfo.Source.inferred.rawValue,
                    screensJSON: row.string("screenPath") ?? "", manifest: row.string("pathManifest") ?? "")
                if keys.contains(key) { try body(PathRow(id: try row.requiredString("id"), key: key)) }
            }
        }
    }

    /// The trail JSON stored for report `id` (recorded, joined or inferred), without its payload; nil when it has none.
    /// - Throws: `StoreError` (`database`).
    package func trailJSON(id: String) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT trail FROM reportWithTrail WHERE id = ?", [.text(id)])?.text }
    }
}
