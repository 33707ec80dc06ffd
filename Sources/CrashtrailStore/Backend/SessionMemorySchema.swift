/// The text of the migration that remembers the sessions counted lately, so an update sent again counts once (SQLite
/// `v23: sessions seen`, PostgreSQL `v20`; SPEC section 20).
///
/// - `seenSession`: per project and session ID (Sentry's `sid`), whether its start and its ending were counted, and
///   when it was last seen (milliseconds since 1970). Kept for a window and up to a number of sessions a project
///   (`ReportStore.SessionMemory`); the oldest go first.
/// - `seenSessionTotal`: how many sessions each project's memory holds, kept by triggers, so that the bound is checked
///   against one row.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum SessionMemorySchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE seenSession (
            project INTEGER NOT NULL,
            sid TEXT NOT NULL,
            started INTEGER NOT NULL,
            ended INTEGER NOT NULL,
            seen INTEGER NOT NULL,
            PRIMARY KEY (project, sid)
        ) WITHOUT ROWID;
        CREATE INDEX seenSession_seen ON seenSession(seen);
        CREATE INDEX seenSession_project_seen ON seenSession(project, seen);
        CREATE TABLE seenSessionTotal (project INTEGER PRIMARY KEY NOT NULL, count INTEGER NOT NULL);
        CREATE TRIGGER seenSession_total_insert AFTER INSERT ON seenSession BEGIN
            INSERT INTO seenSessionTotal (project, count) VALUES (NEW.project, 1)
                ON CONFLICT (project) DO UPDATE SET count = count + 1;
        END;
        CREATE TRIGGER seenSession_total_delete AFTER DELETE ON seenSession BEGIN
            UPDATE seenSessionTotal SET count = count - 1 WHERE project = OLD.project;
        END;
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE seenSession (
            project BIGINT NOT NULL,
            sid TEXT COLLATE "C" NOT NULL,
            started INTEGER NOT NULL,
            ended INTEGER NOT NULL,
            seen BIGINT NOT NULL,
            PRIMARY KEY (project, sid)
        )
        """,
        "CREATE INDEX seenSession_seen ON seenSession(seen)",
        "CREATE INDEX seenSession_project_seen ON seenSession(project, seen)",
        "CREATE TABLE seenSessionTotal (project BIGINT PRIMARY KEY NOT NULL, count BIGINT NOT NULL)",
        """
        CREATE FUNCTION crashtrail_seen_session_total() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                UPDATE seenSessionTotal SET count = count - 1 WHERE project = OLD.project;
            ELSE
                INSERT INTO seenSessionTotal (project, count) VALUES (NEW.project, 1)
                    ON CONFLICT (project) DO UPDATE SET count = seenSessionTotal.count + 1;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER seenSession_total AFTER INSERT OR DELETE ON seenSession
            FOR EACH ROW EXECUTE FUNCTION crashtrail_seen_session_total()
        """,
    ]
}
