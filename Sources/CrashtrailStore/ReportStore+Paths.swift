import CrashtrailCore

extension ReportStore {
    /// What `paths` reads of a report: its trail's source and the screen path stored with it, never the trail itself.
    public struct PathRow: Sendable {
        public var id: String
        public var bundleID: String?
        public var trailSource: TrailInfo.Source
        public var screenPath: StoredScreenPath?
    }

    /// Calls `body` with each report `filter` takes, in no promised order, from one cursor: its ID, app, trail source
    /// and stored screen path.
    ///
    /// `body` runs inside one read transaction, so it must not use the store itself.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    public func forEachPathRow(_ filter: ReportFilter, _ body: (PathRow) throws -> Void) throws(StoreError) {
        let (condition, arguments) = filter.sql(dialect)
        try read { db in
            try db.forEachRow(
                "SELECT id, bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail WHERE \(condition)", arguments
            ) { row in
                let source = try row.requiredString("trailSource")
                try body(
                    PathRow(
                        id: try row.requiredString("id"), bundleID: row.string("bundleID"),
                        trailSource: TrailInfo.Source(rawValue: source) ?? .missing,
                        screenPath: StoredScreenPath(screensJSON: row.string("screenPath"), manifest: row.string("pathManifest"))))
            }
        }
    }

    /// The trail JSON stored for report `id` (recorded, joined or inferred), without its payload; nil when it has none.
    /// - Throws: `StoreError` (`database`).
    public func trailJSON(id: String) throws(StoreError) -> String? {
        try read { db in try db.value("SELECT trail FROM reportWithTrail WHERE id = ?", [.text(id)])?.text }
    }
}
