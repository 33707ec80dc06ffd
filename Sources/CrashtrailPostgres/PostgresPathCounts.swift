import CrashtrailReports
import CrashtrailStore

/// The text of PostgreSQL migration `v9: path counts kept as reports arrive`: the SQLite store's path counts
/// (`SQLitePathCounts` in CrashtrailStore), kept as the group counts are (`PostgresGroupCounts`), so that workers
/// writing at once never wait on each other.
///
/// Released with that migration: never edited. A later schema change is a migration of its own.
///
/// The triggers run once per statement and only insert: one row per changed key, holding the change (a delta).
/// Readers sum a key's rows. Unlike a group's counts, a group's paths are nearly as many as its reports, so folding
/// every key's rows would rewrite the table each time; `crashtrail_compact_path_counts()` folds only the keys that a
/// change took a report away from (a row below zero, found by a partial index), which leaves at most about one row per
/// report with a trail. It takes only committed rows, so it waits on no writer.
enum PostgresPathCounts {
    /// The advisory lock that lets one compaction of the path counts run at a time ("ctpaths" in ASCII).
    static let compactionLock: Int64 = 0x0063_7470_6174_6873

    /// The key columns, in the table's order.
    private static let keys = ["signature", "bundleID", "inferred", "screenPath", "pathManifest"]

    /// The migration's statements, in order.
    static let migration: [String] = {
        var statements = [
            """
            CREATE TABLE groupPathCount (
                signature TEXT COLLATE "C" NOT NULL,
                bundleID TEXT COLLATE "C" NOT NULL,
                inferred INTEGER NOT NULL,
                screenPath TEXT COLLATE "C" NOT NULL,
                pathManifest TEXT COLLATE "C" NOT NULL,
                reports BIGINT NOT NULL
            )
            """,
            "CREATE INDEX groupPathCount_signature ON groupPathCount(signature)",
            "CREATE INDEX groupPathCount_removed ON groupPathCount(signature) WHERE reports < 0",
        ]
        // The reports already stored, counted once.
        statements.append(count(of: "SELECT signature, bundleID, trailSource, screenPath, pathManifest, 1 AS s FROM reportWithTrail"))
        for trigger in CountTriggers.triggers { statements += Self.trigger(trigger) }
        let keyList = keys.joined(separator: ", ")
        let matches = keys.map { "g.\($0) = t.\($0)" }.joined(separator: " AND ")
        statements.append(
            """
            CREATE FUNCTION crashtrail_compact_path_counts() RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                IF NOT pg_try_advisory_xact_lock(\(compactionLock)) THEN
                    RETURN;
                END IF;
                WITH touched AS (SELECT DISTINCT \(keyList) FROM groupPathCount WHERE reports < 0),
                moved AS (DELETE FROM groupPathCount g USING touched t WHERE \(matches) RETURNING g.*)
                INSERT INTO groupPathCount (\(keyList), reports)
                SELECT \(keyList), SUM(reports) FROM moved GROUP BY \(keyList) HAVING SUM(reports) <> 0;
            END
            $$
            """)
        return statements
    }()

    /// The rows of the transition table `table` of `report` as `reportWithTrail` shows them, with the sign `sign`.
    private static func reportRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE \(TrailInfo.Source.joined.sqlLiteral) END AS trailSource,
            CASE WHEN j.id IS NULL THEN x.screenPath ELSE j.screenPath END AS screenPath,
            CASE WHEN j.id IS NULL THEN x.pathManifest ELSE j.pathManifest END AS pathManifest, \(sign) AS s
        FROM \(table) x LEFT JOIN joinedTrail j ON j.id = x.id
        """
    }

    /// The reports of the transition table `table` of `joinedTrail` as they show without those trails.
    private static func rawRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT r.signature, r.bundleID, r.trailSource, r.screenPath, r.pathManifest, \(sign) AS s
        FROM \(table) x JOIN report r ON r.id = x.id
        """
    }

    /// The reports of the transition table `table` of `joinedTrail` as they show with those trails.
    private static func joinedRows(_ table: String, _ sign: Int) -> String {
        """
        SELECT r.signature, r.bundleID, \(TrailInfo.Source.joined.sqlLiteral) AS trailSource, x.screenPath, x.pathManifest, \(sign) AS s
        FROM \(table) x JOIN report r ON r.id = x.id
        """
    }

    /// The trigger function of `trigger` and its trigger: statement-level, but for a report's delete, counted row by
    /// row before it (after it, the joined trail the delete removes with its report, ON DELETE CASCADE, is gone already).
    private static func trigger(_ trigger: CountTriggers.Trigger) -> [String] {
        let name = "crashtrail_path_\(trigger.table == .report ? "report" : "joined")_\(trigger.event.rawValue)"
        let on = "\(trigger.event.keyword) ON \(trigger.table.rawValue)"
        guard !trigger.runsBefore else {
            let deleted = PostgresTriggerSQL.oldRow(["id", "signature", "bundleID", "trailSource", "screenPath", "pathManifest"])
            let rows = trigger.rows.map { select($0, from: deleted) }.joined(separator: "\nUNION ALL\n")
            return PostgresTriggerSQL.function(name, "BEFORE \(on)", [count(of: rows)], eachRow: true)
        }
        let rows = trigger.rows.map { select($0, from: $0.old ? "old_rows" : "new_rows") }
        return function(name, "AFTER \(on) \(PostgresTriggerSQL.transitionTables(trigger))", rows)
    }

    /// The select of `rows`, from the transition table (or the one-row table) `table`.
    private static func select(_ rows: CountTriggers.Rows, from table: String) -> String {
        switch rows.view {
        case .shown: reportRows(table, rows.sign)
        case .withoutJoined: rawRows(table, rows.sign)
        case .withJoined: joinedRows(table, rows.sign)
        }
    }

    /// A trigger function that adds `rows` to the counts, and its statement-level trigger.
    private static func function(_ name: String, _ event: String, _ rows: [String]) -> [String] {
        PostgresTriggerSQL.function(name, event, [count(of: rows.joined(separator: "\nUNION ALL\n"))])
    }

    /// The statement that adds one delta row per changed key, each of `rows` (with the columns `reportRows` names)
    /// counting `s` when it has a trail.
    private static func count(of rows: String) -> String {
        """
        INSERT INTO groupPathCount (\(keys.joined(separator: ", ")), reports)
        SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = \(TrailInfo.Source.inferred.sqlLiteral) THEN 1 ELSE 0 END,
            COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
        FROM (\(rows)) c WHERE trailSource IN \(CountTriggers.trailedSources) GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0
        """
    }
}
