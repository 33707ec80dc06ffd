import CrashtrailCore

extension ReportStore {
    /// What reports with a trail share for `paths`: their app, whether their trail was inferred, and the screen path
    /// stored with them (an empty text for what a report lacks).
    public struct PathKey: Hashable, Sendable {
        public var bundleID: String
        public var inferred: Bool
        public var screensJSON: String
        public var manifest: String

        public init(bundleID: String, inferred: Bool, screensJSON: String, manifest: String) {
            self.bundleID = bundleID
            self.inferred = inferred
            self.screensJSON = screensJSON
            self.manifest = manifest
        }

        /// The app, or nil when the reports have none.
        public var app: String? { bundleID.isEmpty ? nil : bundleID }
        /// The stored screen path, or nil when the reports have none that reads.
        public var screenPath: StoredScreenPath? {
            StoredScreenPath(screensJSON: screensJSON.isEmpty ? nil : screensJSON, manifest: manifest.isEmpty ? nil : manifest)
        }
    }

    /// How many reports with a trail share one ``PathKey``.
    public struct PathCount: Sendable {
        public var key: PathKey
        public var reports: Int
    }

    /// What `paths` reads of a report it must replay: its ID and key.
    public struct PathRow: Sendable {
        public var id: String
        public var key: PathKey
    }

    /// The reports with a trail (of the group with `signature`, or of every group), counted by ``PathKey``.
    ///
    /// The store counts them (`GROUP BY` over the group's range of `report_group_recent` and the stored path
    /// columns), so the caller decodes each different path once, whatever the number of reports that share it.
    /// - Throws: `StoreError` (`database`).
    public func pathCounts(signature: String?) throws(StoreError) -> [PathCount] {
        try read { db in
            try db.rows(Self.pathCountsSQL(signature: signature), signature.map { [.text($0)] } ?? []).map { row in
                PathCount(
                    key: PathKey(
                        bundleID: try row.requiredString("bundleID"), inferred: row.int("inferred") == 1,
                        screensJSON: try row.requiredString("screenPath"), manifest: try row.requiredString("pathManifest")),
                    reports: row.int("reports") ?? 0)
            }
        }
    }

    /// The SQL of `pathCounts(signature:)`; `QueryPlanTests` pins its plan.
    package static func pathCountsSQL(signature: String?) -> String {
        """
        SELECT COALESCE(bundleID, '') AS bundleID, CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END AS inferred,
            COALESCE(screenPath, '') AS screenPath, COALESCE(pathManifest, '') AS pathManifest, COUNT(*) AS reports
        FROM reportWithTrail WHERE trailSource IN ('embedded', 'joined', 'inferred')\(signature == nil ? "" : " AND signature = ?")
        GROUP BY 1, 2, 3, 4
        """
    }

    /// Calls `body` with each report with a trail that `filter` takes and whose key is one of `keys`, in no promised
    /// order, from one cursor: the reports `paths` must replay.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachPathRow(_ filter: ReportFilter, keys: Set<PathKey>, _ body: (PathRow) throws -> Void) throws(StoreError) {
        guard !keys.isEmpty else { return }
        let (condition, arguments) = filter.sql(dialect)
        try read { db in
            try db.forEachRow(
                """
                SELECT id, bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail
                WHERE \(condition) AND trailSource IN ('embedded', 'joined', 'inferred')
                """, arguments
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
    public func trailJSON(id: String) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT trail FROM reportWithTrail WHERE id = ?", [.text(id)])?.text }
    }
}
