import CrashtrailStore

/// SQL text the migrations that keep counts with triggers share (`PostgresGroupCounts`, `PostgresPathCounts`).
///
/// The text it gives is part of released migrations: a change here must leave every statement it made the same.
enum PostgresTriggerSQL {
    /// A plpgsql trigger function that runs `statements`, and its trigger on `event`.
    ///
    /// The trigger runs once per statement (`RETURN NULL`), or, with `eachRow`, for each row before a delete (`RETURN
    /// OLD`, so the delete goes on).
    static func function(_ name: String, _ event: String, _ statements: [String], eachRow: Bool = false) -> [String] {
        [
            """
            CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
            \(statements.map { $0 + ";" }.joined(separator: "\n"))
                RETURN \(eachRow ? "OLD" : "NULL");
            END
            $$
            """,
            "CREATE TRIGGER \(name) \(event) FOR EACH \(eachRow ? "ROW" : "STATEMENT") EXECUTE FUNCTION \(name)()",
        ]
    }

    /// `OLD`'s `columns` as a one-row table, for the statements of a row trigger.
    static func oldRow(_ columns: [String]) -> String {
        "(SELECT " + columns.map { "OLD.\($0) AS \($0)" }.joined(separator: ", ") + ")"
    }

    /// The transition tables a statement trigger on `trigger`'s change reads: `old_rows` for what it removed or
    /// changed, `new_rows` for what it added or changed.
    static func transitionTables(_ trigger: CountTriggers.Trigger) -> String {
        switch trigger.event {
        case .insert: "REFERENCING NEW TABLE AS new_rows"
        case .delete: "REFERENCING OLD TABLE AS old_rows"
        case .update: "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows"
        }
    }
}
