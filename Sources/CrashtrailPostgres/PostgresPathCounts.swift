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
        statements += function(
            "crashtrail_path_report_insert", "AFTER INSERT ON report REFERENCING NEW TABLE AS new_rows", [reportRows("new_rows", 1)])
        // A delete is counted row by row, before it: after it, the joined trail that the delete removes with its report
        // (ON DELETE CASCADE) is gone already.
        let deleted = PostgresTriggerSQL.oldRow(["id", "signature", "bundleID", "trailSource", "screenPath", "pathManifest"])
        statements += PostgresTriggerSQL.function(
            "crashtrail_path_report_delete", "BEFORE DELETE ON report", [count(of: reportRows(deleted, -1))], eachRow: true)
        statements += function(
            "crashtrail_path_report_update", "AFTER UPDATE ON report REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
            [reportRows("old_rows", -1), reportRows("new_rows", 1)])
        // A joined trail replaces its report's trail source and path with its own.
        statements += function(
            "crashtrail_path_joined_insert", "AFTER INSERT ON joinedTrail REFERENCING NEW TABLE AS new_rows",
            [rawRows("new_rows", -1), joinedRows("new_rows", 1)])
        statements += function(
            "crashtrail_path_joined_delete", "AFTER DELETE ON joinedTrail REFERENCING OLD TABLE AS old_rows",
            [joinedRows("old_rows", -1), rawRows("old_rows", 1)])
        statements += function(
            "crashtrail_path_joined_update", "AFTER UPDATE ON joinedTrail REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
            [joinedRows("old_rows", -1), rawRows("old_rows", 1), rawRows("new_rows", -1), joinedRows("new_rows", 1)])
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
        SELECT x.signature, x.bundleID, CASE WHEN j.id IS NULL THEN x.trailSource ELSE 'joined' END AS trailSource,
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
        SELECT r.signature, r.bundleID, 'joined' AS trailSource, x.screenPath, x.pathManifest, \(sign) AS s
        FROM \(table) x JOIN report r ON r.id = x.id
        """
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
        SELECT signature, COALESCE(bundleID, ''), CASE WHEN trailSource = 'inferred' THEN 1 ELSE 0 END,
            COALESCE(screenPath, ''), COALESCE(pathManifest, ''), SUM(s)
        FROM (\(rows)) c WHERE trailSource IN ('embedded', 'joined', 'inferred') GROUP BY 1, 2, 3, 4, 5 HAVING SUM(s) <> 0
        """
    }
}
