import CrashtrailReports

/// The text of SQLite migration `v12: path counts kept as reports arrive`: a table of how many reports with a trail
/// share each stored screen path in each group, kept by triggers as rows of `report` and `joinedTrail` are inserted,
/// updated and deleted, so `paths` reads a group's distinct paths instead of its reports.
///
/// Released with that migration: never edited. A later schema change is a migration of its own.
///
/// In a report's row the stored path sits after its payload, so reading it walks the payload's overflow pages: on a
/// store that is not in the page cache, `paths` of a large group read most of the group's payloads from the disk. The
/// kept counts are a small table of their own.
///
/// A report counts for what `reportWithTrail` shows of it, when it has a trail: its signature, app, whether its
/// trail was inferred, and its stored path and the fingerprint of the manifest that made it (empty texts for what it
/// lacks); the key of `ReportStore.PathKey`. The triggers are ``CountTriggers``'s, as the group counts' are
/// (`SQLiteGroupCounts`), and each also removes the keys whose count falls to zero.
enum SQLitePathCounts {
    /// The migration's statements, in order: the table, its first counts from the reports already stored, and the
    /// triggers.
    static let migration: String = {
        var statements = [
            """
            CREATE TABLE groupPathCount (
                signature TEXT NOT NULL,
                bundleID TEXT NOT NULL,
                inferred INTEGER NOT NULL,
                screenPath TEXT NOT NULL,
                pathManifest TEXT NOT NULL,
                reports INTEGER NOT NULL,
                PRIMARY KEY (signature, bundleID, inferred, screenPath, pathManifest)
            ) WITHOUT ROWID
            """,
            // The reports already stored, counted once, each added to its key's row as it is read: a GROUP BY would
            // sort every report's key first, in memory (the writer keeps its temporary storage there): 380 MB for a
            // store of a million reports in sqlite3, against 13 MB this way.
            count(reportWithTrail, 1),
        ]
        statements += CountTriggers.triggers.map(trigger)
        return statements.joined(separator: ";\n")
    }()

    /// The key columns of a row of `src` (columns named as in `reportWithTrail`), in the table's order.
    private static let keyColumns = """
        src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = \(TrailInfo.Source.inferred.sqlLiteral) THEN 1 ELSE 0 END,
            COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '')
        """

    /// Whether the row of `src` has a trail, and so counts.
    private static let withTrail = "src.trailSource IN \(CountTriggers.trailedSources)"

    /// Every report as `reportWithTrail` shows it.
    private static let reportWithTrail = """
        SELECT signature, bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail
        """

    /// A report just inserted, as `reportWithTrail` shows it: no trail has joined it yet (a joined trail's row needs
    /// its report's first, by the foreign key), so it is its row as it is, and the insert, the hot path of ingest,
    /// reads nothing else.
    private static let newReportRow = """
        SELECT NEW.signature AS signature, NEW.bundleID AS bundleID, NEW.trailSource AS trailSource,
            NEW.screenPath AS screenPath, NEW.pathManifest AS pathManifest
        """

    /// The report row `row` (`NEW` or `OLD` of a `report` trigger) as `reportWithTrail` shows it.
    private static func reportRow(_ row: String) -> String {
        """
        SELECT \(row).signature AS signature, \(row).bundleID AS bundleID,
            CASE WHEN j.id IS NULL THEN \(row).trailSource ELSE \(TrailInfo.Source.joined.sqlLiteral) END AS trailSource,
            CASE WHEN j.id IS NULL THEN \(row).screenPath ELSE j.screenPath END AS screenPath,
            CASE WHEN j.id IS NULL THEN \(row).pathManifest ELSE j.pathManifest END AS pathManifest
        FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = \(row).id
        """
    }

    /// The report of the `joinedTrail` row `row` as it shows without that trail.
    private static func rawRow(_ row: String) -> String {
        """
        SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
            r.pathManifest AS pathManifest
        FROM report r WHERE r.id = \(row).id
        """
    }

    /// The report of the `joinedTrail` row `row` as it shows with that trail.
    private static func joinedRow(_ row: String) -> String {
        """
        SELECT r.signature AS signature, r.bundleID AS bundleID, \(TrailInfo.Source.joined.sqlLiteral) AS trailSource, \(row).screenPath AS screenPath,
            \(row).pathManifest AS pathManifest
        FROM report r WHERE r.id = \(row).id
        """
    }

    /// The trigger of `trigger`: it takes away the rows it counts with -1 and adds those with 1.
    private static func trigger(_ trigger: CountTriggers.Trigger) -> String {
        let name = "\(trigger.table == .report ? "report" : "joined")_paths_\(trigger.event.rawValue)"
        var event = "\(trigger.runsBefore ? "BEFORE" : "AFTER") \(trigger.event.keyword) ON \(trigger.table.rawValue)"
        if trigger.event == .update { event += " WHEN " + updateCondition(trigger.table) }
        return self.trigger(
            name, event, added: trigger.rows.filter { $0.sign > 0 }.map { select($0, of: trigger) },
            removed: trigger.rows.filter { $0.sign < 0 }.map { select($0, of: trigger) })
    }

    /// When an update of `table` can move what its rows count for: a column the counts read changed.
    private static func updateCondition(_ table: CountTriggers.Table) -> String {
        switch table {
        case .report:
            """
            OLD.id IS NOT NEW.id OR OLD.signature IS NOT NEW.signature
                OR OLD.bundleID IS NOT NEW.bundleID OR OLD.trailSource IS NOT NEW.trailSource
                OR OLD.screenPath IS NOT NEW.screenPath OR OLD.pathManifest IS NOT NEW.pathManifest
            """
        case .joinedTrail:
            """
            OLD.id IS NOT NEW.id OR OLD.screenPath IS NOT NEW.screenPath
                OR OLD.pathManifest IS NOT NEW.pathManifest
            """
        }
    }

    /// The select of `rows`, the rows a trigger on `trigger`'s table counts.
    private static func select(_ rows: CountTriggers.Rows, of trigger: CountTriggers.Trigger) -> String {
        let row = rows.old ? "OLD" : "NEW"
        switch rows.view {
        case .shown where trigger.event == .insert: return newReportRow
        case .shown: return reportRow(row)
        case .withoutJoined: return rawRow(row)
        case .withJoined: return joinedRow(row)
        }
    }

    /// A trigger whose body takes away each of `removed` and adds each of `added` (selects of the columns `reportRow`
    /// names), then removes the keys that `removed` left at zero.
    private static func trigger(_ name: String, _ event: String, added: [String], removed: [String]) -> String {
        var body = removed.map { count($0, -1) } + added.map { count($0, 1) }
        body += removed.map { row in
            """
            DELETE FROM groupPathCount WHERE reports = 0
                AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT \(keyColumns) FROM (\(row)) AS src)
            """
        }
        return "CREATE TRIGGER \(name) \(event) BEGIN\n" + body.map { $0 + ";\n" }.joined() + "END"
    }

    /// The statement that adds `sign` (1 or -1) to the count of `row`'s key, when it has a trail.
    private static func count(_ row: String, _ sign: Int) -> String {
        """
        INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
        SELECT \(keyColumns), \(sign) FROM (\(row)) AS src WHERE \(withTrail)
        ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports
        """
    }
}
