import CrashtrailReports
import CrashtrailStore

/// The text of PostgreSQL migration `v7: group counts kept as reports arrive`: the SQLite store's count tables
/// (`SQLiteGroupCounts` in CrashtrailStore), kept so that workers writing at once never wait on each other.
///
/// Released with that migration: never edited. A later schema change is a migration of its own.
///
/// On a server, a count row that every worker's transaction updated would make the workers queue behind, and deadlock
/// over, the same rows. Here the triggers run once per statement (with its transition tables) and only insert: each
/// adds one row per changed key holding the change (a delta). Readers sum a key's rows. `crashtrail_compact_counts()`
/// folds the rows into one per key; the backend runs it after every few write transactions, and it takes only rows
/// already committed, so it waits on no writer.
enum PostgresGroupCounts {
    /// The advisory lock that lets one compaction run at a time ("ctcounts" in ASCII).
    static let compactionLock: Int64 = 0x6374_636F_756E_7473

    /// The migration's statements, in order.
    static let migration: [String] = {
        var statements: [String] = []
        for table in tables {
            statements.append("CREATE TABLE \(table.name) (\(table.columns))")
            statements.append("CREATE INDEX \(table.name)_signature ON \(table.name)(signature)")
        }
        // The reports already stored, counted once.
        statements += counts(
            of: "SELECT signature, appVersion, time, trailSource AS src, 1 AS s FROM reportWithTrail",
            versionsAndDays: true)
        for trigger in CountTriggers.triggers { statements += Self.trigger(trigger) }
        let compaction = tables.map { table in
            let sums = table.counts.map { "SUM(\($0))" }
            let changed = sums.map { "\($0) <> 0" }.joined(separator: " OR ")
            return """
                WITH moved AS (DELETE FROM \(table.name) RETURNING *)
                INSERT INTO \(table.name) (\((table.keys + table.counts).joined(separator: ", ")))
                SELECT \((table.keys + sums).joined(separator: ", ")) FROM moved GROUP BY \(table.keys.joined(separator: ", ")) HAVING \(changed);
                """
        }
        statements.append(
            """
            CREATE FUNCTION crashtrail_compact_counts() RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                IF NOT pg_try_advisory_xact_lock(\(compactionLock)) THEN
                    RETURN;
                END IF;
            \(compaction.joined(separator: "\n"))
            END
            $$
            """)
        return statements
    }()

    /// A count table: its name, its columns, and which of them are the key and which the counts.
    private struct Table {
        var name: String
        var columns: String
        var keys: [String]
        var counts: [String]
    }

    /// The count tables.
    private static let tables = [
        Table(
            name: "groupCount",
            columns: #"signature TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL, withTrail BIGINT NOT NULL, inferred BIGINT NOT NULL"#,
            keys: ["signature"], counts: ["reports", "withTrail", "inferred"]),
        Table(
            name: "groupVersionCount",
            columns:
                #"signature TEXT COLLATE "C" NOT NULL, known INTEGER NOT NULL, version TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL"#,
            keys: ["signature", "known", "version"], counts: ["reports"]),
        Table(
            name: "groupDayCount",
            columns: #"signature TEXT COLLATE "C" NOT NULL, day TEXT COLLATE "C" NOT NULL, reports BIGINT NOT NULL"#,
            keys: ["signature", "day"], counts: ["reports"]),
    ]

    /// The rows of the transition table `table` of `report` as `reportWithTrail` shows them, with the sign `sign`.
    private static func reportRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT x.signature, x.appVersion, x.time, CASE WHEN j.id IS NULL THEN x.trailSource ELSE \(TrailInfo.Source.joined.sqlLiteral) END AS src, \(sign) AS s
        FROM \(table) x LEFT JOIN joinedTrail j ON j.id = x.id
        """
    }

    /// The reports of the transition table `table` of `joinedTrail` as they show without those trails.
    private static func rawRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT r.signature, r.appVersion, r.time, r.trailSource AS src, \(sign) AS s
        FROM \(table) x JOIN report r ON r.id = x.id
        """
    }

    /// The reports of the transition table `table` of `joinedTrail` as they show with those trails.
    private static func joinedRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT r.signature, r.appVersion, r.time, \(TrailInfo.Source.joined.sqlLiteral) AS src, \(sign) AS s
        FROM \(table) x JOIN report r ON r.id = x.id
        """
    }

    /// The trigger function of `trigger` and its trigger: statement-level, but for a report's delete, counted row by
    /// row before it (after it, the joined trail the delete removes with its report, ON DELETE CASCADE, is gone already;
    /// nothing in crashtrail deletes reports, this keeps the counts right when someone does).
    private static func trigger(_ trigger: CountTriggers.Trigger) -> [String] {
        let name = "crashtrail_count_\(trigger.table == .report ? "report" : "joined")_\(trigger.event.rawValue)"
        let on = "\(trigger.event.keyword) ON \(trigger.table.rawValue)"
        guard !trigger.runsBefore else {
            let deleted = PostgresTriggerSQL.oldRow(["id", "signature", "appVersion", "time", "trailSource"])
            let rows = trigger.rows.map { select($0, from: deleted) }.joined(separator: "\nUNION ALL\n")
            return PostgresTriggerSQL.function(name, "BEFORE \(on)", counts(of: rows, versionsAndDays: true), eachRow: true)
        }
        let rows = trigger.rows.map { select($0, from: $0.old ? "old_rows" : "new_rows") }
        return function(name, "AFTER \(on) \(PostgresTriggerSQL.transitionTables(trigger))", rows, versionsAndDays: !trigger.movesTrailOnly)
    }

    /// The select of `rows`, from the transition table (or the one-row table) `table`.
    private static func select(_ rows: CountTriggers.Rows, from table: String) -> String {
        switch rows.view {
        case .shown: reportRows(table, rows.sign)
        case .withoutJoined: rawRows(table, rows.sign)
        case .withJoined: joinedRows(table, rows.sign)
        }
    }

    /// A trigger function that adds `rows` (selects of the columns `reportRows` names) to the counts, and its
    /// statement-level trigger.
    private static func function(_ name: String, _ event: String, _ rows: [String], versionsAndDays: Bool = true) -> [String] {
        PostgresTriggerSQL.function(name, event, counts(of: rows.joined(separator: "\nUNION ALL\n"), versionsAndDays: versionsAndDays))
    }

    /// The statements that add one delta row per changed key of each count table, each of `rows` counting `s`.
    private static func counts(of rows: String, versionsAndDays: Bool) -> [String] {
        let withTrail = "src IN \(CountTriggers.trailedSources)"
        let trailed = "SUM(CASE WHEN \(withTrail) THEN s ELSE 0 END)"
        let inferred = "SUM(CASE WHEN src = \(TrailInfo.Source.inferred.sqlLiteral) THEN s ELSE 0 END)"
        var statements = [
            """
            INSERT INTO groupCount (signature, reports, withTrail, inferred)
            SELECT signature, SUM(s), \(trailed), \(inferred) FROM (\(rows)) c GROUP BY signature
            HAVING SUM(s) <> 0 OR \(trailed) <> 0 OR \(inferred) <> 0
            """
        ]
        if versionsAndDays {
            statements += [
                """
                INSERT INTO groupVersionCount (signature, known, version, reports)
                SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
                FROM (\(rows)) c GROUP BY 1, 2, 3 HAVING SUM(s) <> 0
                """,
                """
                INSERT INTO groupDayCount (signature, day, reports)
                SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
                FROM (\(rows)) c GROUP BY 1, 2 HAVING SUM(s) <> 0
                """,
            ]
        }
        return statements
    }
}
