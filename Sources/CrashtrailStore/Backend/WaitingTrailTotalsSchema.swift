/// The text of the migration that makes a trail's wait and a resent trail's join cost what one trail costs (SQLite
/// `v22: waiting trails counted, joined trails by digest`, PostgreSQL `v19`; SPEC section 18).
///
/// - `waitingTrailTotal`: how many trails of each project wait and their bytes, kept by triggers on `waitingTrail` as
///   trails come and go. The bound a new trail is held against reads this row, not every waiting trail.
/// - `waitingTrail.digest`, `joinedTrail.digest`: the SHA-256 of the trail's canonical JSON, which the trail brings
///   from its wait to its join. A trail sent again is found among the joined trails by `joinedTrail_digest`, not by
///   comparing every joined trail's text with its own. The rows stored before have theirs computed by the migration.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum WaitingTrailTotalsSchema {
    /// SQLite's statements; the digests of the rows there are written by the migration (`SQLiteBackend`), since SQLite
    /// has no SHA-256 of its own.
    package static let sqlite = """
        ALTER TABLE waitingTrail ADD COLUMN digest BLOB;
        ALTER TABLE joinedTrail ADD COLUMN digest BLOB;
        CREATE INDEX joinedTrail_digest ON joinedTrail(digest);
        CREATE TABLE waitingTrailTotal (
            project INTEGER PRIMARY KEY NOT NULL,
            count INTEGER NOT NULL,
            bytes INTEGER NOT NULL
        );
        INSERT INTO waitingTrailTotal (project, count, bytes)
            SELECT project, COUNT(*), COALESCE(SUM(size), 0) FROM waitingTrail GROUP BY project;
        CREATE TRIGGER waitingTrail_total_insert AFTER INSERT ON waitingTrail BEGIN
            INSERT INTO waitingTrailTotal (project, count, bytes) VALUES (NEW.project, 1, NEW.size)
                ON CONFLICT (project) DO UPDATE SET count = count + 1, bytes = bytes + excluded.bytes;
        END;
        CREATE TRIGGER waitingTrail_total_delete AFTER DELETE ON waitingTrail BEGIN
            UPDATE waitingTrailTotal SET count = count - 1, bytes = bytes - OLD.size WHERE project = OLD.project;
        END;
        CREATE TRIGGER waitingTrail_total_update AFTER UPDATE OF project, size ON waitingTrail BEGIN
            UPDATE waitingTrailTotal SET count = count - 1, bytes = bytes - OLD.size WHERE project = OLD.project;
            INSERT INTO waitingTrailTotal (project, count, bytes) VALUES (NEW.project, 1, NEW.size)
                ON CONFLICT (project) DO UPDATE SET count = count + 1, bytes = bytes + excluded.bytes;
        END;
        """

    /// PostgreSQL's statements: its digests come from its own `sha256`.
    package static let postgres = [
        "ALTER TABLE waitingTrail ADD COLUMN digest BYTEA",
        "UPDATE waitingTrail SET digest = sha256(convert_to(trail, 'UTF8'))",
        "ALTER TABLE joinedTrail ADD COLUMN digest BYTEA",
        "UPDATE joinedTrail SET digest = sha256(convert_to(trail, 'UTF8'))",
        "CREATE INDEX joinedTrail_digest ON joinedTrail(digest)",
        """
        CREATE TABLE waitingTrailTotal (
            project BIGINT PRIMARY KEY NOT NULL,
            count BIGINT NOT NULL,
            bytes BIGINT NOT NULL
        )
        """,
        """
        INSERT INTO waitingTrailTotal (project, count, bytes)
            SELECT project, COUNT(*), COALESCE(SUM(size), 0) FROM waitingTrail GROUP BY project
        """,
        """
        CREATE FUNCTION crashtrail_waiting_total() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') THEN
                UPDATE waitingTrailTotal SET count = count - 1, bytes = bytes - OLD.size WHERE project = OLD.project;
            END IF;
            IF TG_OP IN ('UPDATE', 'INSERT') THEN
                INSERT INTO waitingTrailTotal (project, count, bytes) VALUES (NEW.project, 1, NEW.size)
                    ON CONFLICT (project) DO UPDATE SET
                        count = waitingTrailTotal.count + 1, bytes = waitingTrailTotal.bytes + excluded.bytes;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER waitingTrail_total AFTER INSERT OR DELETE OR UPDATE OF project, size ON waitingTrail
            FOR EACH ROW EXECUTE FUNCTION crashtrail_waiting_total()
        """,
    ]
}
