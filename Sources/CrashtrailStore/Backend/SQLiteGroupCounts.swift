/// The text of SQLite migration `v11: group counts kept as reports arrive`: count tables that triggers keep as rows of
/// `report` and `joinedTrail` are inserted, updated and deleted, so `list` and `show GROUP` read a group's counts
/// instead of counting its reports.
///
/// Released with that migration: never edited. A later schema change is a migration of its own.
///
/// What a report counts for is what `reportWithTrail` shows of it: its signature, app version, day and trail source
/// (`joined` when a trail joined it). Each trigger takes
/// away what a row counted for before the change and adds what it counts for after, so every writer (ingest, a join,
/// reprocess, a copy, a hand-made `DELETE`) keeps the counts without knowing of them.
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
        statements += [
            trigger("report_counted_insert", "AFTER INSERT ON report", newReportRow),
            // Before the delete: after it, the joined trail that the delete removes with its report may be gone already.
            trigger("report_counted_delete", "BEFORE DELETE ON report", reportRows("OLD", -1)),
            trigger(
                "report_counted_update",
                """
                AFTER UPDATE ON report WHEN OLD.id IS NOT NEW.id OR OLD.signature IS NOT NEW.signature
                    OR OLD.appVersion IS NOT NEW.appVersion OR OLD.time IS NOT NEW.time OR OLD.trailSource IS NOT NEW.trailSource
                """,
                reportRows("OLD", -1), reportRows("NEW", 1)),
            // A joined trail changes only what its report counts for by trail: its source.
            trigger(
                "joined_counted_insert", "AFTER INSERT ON joinedTrail", rawRows("NEW", -1), joinedRows("NEW", 1), versionsAndDays: false),
            trigger(
                "joined_counted_delete", "AFTER DELETE ON joinedTrail", joinedRows("OLD", -1), rawRows("OLD", 1), versionsAndDays: false),
            trigger(
                "joined_counted_update",
                """
                AFTER UPDATE ON joinedTrail WHEN OLD.id IS NOT NEW.id
                """,
                joinedRows("OLD", -1), rawRows("OLD", 1), rawRows("NEW", -1), joinedRows("NEW", 1), versionsAndDays: false),
        ]
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
            CASE WHEN j.id IS NULL THEN \(row).trailSource ELSE 'joined' END AS src, \(sign) AS s
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
        SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, 'joined' AS src, \(sign) AS s
        FROM report r WHERE r.id = \(row).id
        """
    }

    /// A trigger whose body adds each of `rows` (selects of the columns `reportRows` names) to the counts.
    private static func trigger(_ name: String, _ event: String, _ rows: String..., versionsAndDays: Bool = true) -> String {
        let body = rows.flatMap { counts(of: $0, versionsAndDays: versionsAndDays, grouped: false) }
        return "CREATE TRIGGER \(name) \(event) BEGIN\n" + body.map { $0 + ";\n" }.joined() + "END"
    }

    /// The statements that add `rows` to each count table, each row counting `s` (1 or -1); `grouped` sums the rows
    /// of a key first (a trigger's rows are one report, so it adds them as they are).
    private static func counts(of rows: String, versionsAndDays: Bool, grouped: Bool) -> [String] {
        func sum(_ value: String) -> String { grouped ? "SUM(\(value))" : value }
        func groupBy(_ keys: String) -> String { grouped ? " GROUP BY \(keys)" : "" }
        let withTrail = "src IN ('embedded', 'joined', 'inferred')"
        var statements = [
            """
            INSERT INTO groupCount (signature, reports, withTrail, inferred)
            SELECT signature, \(sum("s")), \(sum("CASE WHEN \(withTrail) THEN s ELSE 0 END")),
                \(sum("CASE WHEN src = 'inferred' THEN s ELSE 0 END"))
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
