import CrashtrailReports

/// The text of SQLite migration `v11: group counts kept as reports arrive`: count tables that triggers keep as rows of
/// `report` and `joinedTrail` are inserted, updated and deleted, so `list` and `show GROUP` read a group's counts
/// instead of counting its reports.
///
/// Released with that migration: never edited. A later schema change is a migration of its own.
///
/// What a report counts for is what `reportWithTrail` shows of it: its signature, app version, day and trail source
/// (`joined` when a trail joined it). The triggers are ``CountTriggers``'s, as row triggers that update each count in
/// place.
enum SQLiteGroupCounts {
    /// The migration's statements, in order: the tables, their first counts from the reports already stored, and the
    /// triggers.
    static let migration: String = {
        var statements = [
            """
            CREATE TABLE groupCount (
                signature TEXT PRIMARY KEY NOT NULL,
                reports INTEGER NOT NULL,
                withTrail INTEGER NOT NULL,
                inferred INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE groupVersionCount (
                signature TEXT NOT NULL,
                known INTEGER NOT NULL,
                version TEXT NOT NULL,
                reports INTEGER NOT NULL,
                PRIMARY KEY (signature, known, version)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE groupDayCount (
                signature TEXT NOT NULL,
                day TEXT NOT NULL,
                reports INTEGER NOT NULL,
                PRIMARY KEY (signature, day)
            ) WITHOUT ROWID
            """,
        ]
        // The reports already stored, counted once.
        let stored = """
            SELECT signature, appVersion, time, trailSource AS src, 1 AS s
            FROM reportWithTrail
            """
        statements += counts(of: stored, versionsAndDays: true, grouped: true)
        statements += CountTriggers.triggers.map(trigger)
        return statements.joined(separator: ";\n")
    }()

    /// A report just inserted, as `reportWithTrail` shows it: no trail has joined it yet (a joined trail's row needs
    /// its report's first, by the foreign key), so it is its row as it is, and the insert, the hot path of ingest,
    /// reads nothing else.
    private static let newReportRow = """
        SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time, NEW.trailSource AS src, 1 AS s
        """

    /// The row `row` (`NEW` or `OLD` of a `report` trigger) as `reportWithTrail` shows it, with the sign `sign`.
    private static func reportRows(_ row: String, _ sign: Int) -> String {
        """
        SELECT \(row).signature AS signature, \(row).appVersion AS appVersion, \(row).time AS time,
            CASE WHEN j.id IS NULL THEN \(row).trailSource ELSE \(TrailInfo.Source.joined.sqlLiteral) END AS src, \(sign) AS s
        FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = \(row).id
        """
    }

    /// The report of the `joinedTrail` row `row` as it shows without that trail, with the sign `sign`.
    private static func rawRows(_ row: String, _ sign: Int) -> String {
        """
        SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, r.trailSource AS src, \(sign) AS s
        FROM report r WHERE r.id = \(row).id
        """
    }

    /// The report of the `joinedTrail` row `row` as it shows with that trail, with the sign `sign`.
    private static func joinedRows(_ row: String, _ sign: Int) -> String {
        """
        SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, \(TrailInfo.Source.joined.sqlLiteral) AS src, \(sign) AS s
        FROM report r WHERE r.id = \(row).id
        """
    }

    /// The trigger of `trigger`: its body adds each of its rows (selects of the columns `reportRows` names) to the counts.
    private static func trigger(_ trigger: CountTriggers.Trigger) -> String {
        let name = "\(trigger.table == .report ? "report" : "joined")_counted_\(trigger.event.rawValue)"
        var event = "\(trigger.runsBefore ? "BEFORE" : "AFTER") \(trigger.event.keyword) ON \(trigger.table.rawValue)"
        if trigger.event == .update { event += " WHEN " + updateCondition(trigger.table) }
        let body = trigger.rows.flatMap { rows in
            counts(of: select(rows, of: trigger), versionsAndDays: !trigger.movesTrailOnly, grouped: false)
        }
        return "CREATE TRIGGER \(name) \(event) BEGIN\n" + body.map { $0 + ";\n" }.joined() + "END"
    }

    /// When an update of `table` can move what its rows count for: a column the counts read changed.
    private static func updateCondition(_ table: CountTriggers.Table) -> String {
        switch table {
        case .report:
            """
            OLD.id IS NOT NEW.id OR OLD.signature IS NOT NEW.signature
                OR OLD.appVersion IS NOT NEW.appVersion OR OLD.time IS NOT NEW.time OR OLD.trailSource IS NOT NEW.trailSource
            """
        case .joinedTrail: "OLD.id IS NOT NEW.id"
        }
    }

    /// The select of `rows`, the rows a trigger on `trigger`'s table counts.
    private static func select(_ rows: CountTriggers.Rows, of trigger: CountTriggers.Trigger) -> String {
        let row = rows.old ? "OLD" : "NEW"
        switch rows.view {
        case .shown where trigger.event == .insert: return newReportRow
        case .shown: return reportRows(row, rows.sign)
        case .withoutJoined: return rawRows(row, rows.sign)
        case .withJoined: return joinedRows(row, rows.sign)
        }
    }

    /// The statements that add `rows` to each count table, each row counting `s` (1 or -1); `grouped` sums the rows
    /// of a key first (a trigger's rows are one report, so it adds them as they are).
    private static func counts(of rows: String, versionsAndDays: Bool, grouped: Bool) -> [String] {
        func sum(_ value: String) -> String { grouped ? "SUM(\(value))" : value }
        func groupBy(_ keys: String) -> String { grouped ? " GROUP BY \(keys)" : "" }
        let withTrail = "src IN \(CountTriggers.trailedSources)"
        var statements = [
            """
            INSERT INTO groupCount (signature, reports, withTrail, inferred)
            SELECT signature, \(sum("s")), \(sum("CASE WHEN \(withTrail) THEN s ELSE 0 END")),
                \(sum("CASE WHEN src = \(TrailInfo.Source.inferred.sqlLiteral) THEN s ELSE 0 END"))
            FROM (\(rows)) WHERE true\(groupBy("signature"))
            ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
                withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred
            """
        ]
        if versionsAndDays {
            statements += [
                """
                INSERT INTO groupVersionCount (signature, known, version, reports)
                SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), \(sum("s"))
                FROM (\(rows)) WHERE true\(groupBy("1, 2, 3"))
                ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports
                """,
                """
                INSERT INTO groupDayCount (signature, day, reports)
                SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, \(sum("s"))
                FROM (\(rows)) WHERE true\(groupBy("1, 2"))
                ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports
                """,
            ]
        }
        return statements
    }
}
