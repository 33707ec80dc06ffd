/// The text of the migrations that keep release health (SPEC section 20).
///
/// SQLite's `v18: release health`, PostgreSQL's `v15: release health`. Both tables grow with releases, hours and paths, never with sessions.
///
/// - `sessionCount`: sessions started, crashed, abnormal and errored per project (0 for none), release, environment
///   and hour, with the distinct users and crashed users as `UserSketch` bytes.
/// - `pathVisit`: sessions that did not crash, through each screen, transition and sequence (`kind` 1, 2, 3; `screens`
///   the names joined by newlines), per project and release: `sessions` scaled by the sample rates (the sum of the
///   trails' weights, 1 / sample rate), `squares` the sum of the weights' squares (for the effective sample size of
///   the intervals), `trails` as sent.
///   The row of kind 0 with no screens counts every such session of the release.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum HealthSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE sessionCount (
            project INTEGER NOT NULL,
            release TEXT NOT NULL,
            environment TEXT NOT NULL,
            hour INTEGER NOT NULL,
            started INTEGER NOT NULL,
            crashed INTEGER NOT NULL,
            abnormal INTEGER NOT NULL,
            errored INTEGER NOT NULL,
            users BLOB NOT NULL,
            crashedUsers BLOB NOT NULL,
            PRIMARY KEY (project, release, environment, hour)
        ) WITHOUT ROWID;
        CREATE TABLE pathVisit (
            project INTEGER NOT NULL,
            release TEXT NOT NULL,
            kind INTEGER NOT NULL,
            screens TEXT NOT NULL,
            sessions REAL NOT NULL,
            squares REAL NOT NULL,
            trails INTEGER NOT NULL,
            PRIMARY KEY (project, release, screens)
        ) WITHOUT ROWID;
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE sessionCount (
            project BIGINT NOT NULL,
            release TEXT COLLATE "C" NOT NULL,
            environment TEXT COLLATE "C" NOT NULL,
            hour BIGINT NOT NULL,
            started BIGINT NOT NULL,
            crashed BIGINT NOT NULL,
            abnormal BIGINT NOT NULL,
            errored BIGINT NOT NULL,
            users BYTEA NOT NULL,
            crashedUsers BYTEA NOT NULL,
            PRIMARY KEY (project, release, environment, hour)
        )
        """,
        """
        CREATE TABLE pathVisit (
            project BIGINT NOT NULL,
            release TEXT COLLATE "C" NOT NULL,
            kind BIGINT NOT NULL,
            screens TEXT COLLATE "C" NOT NULL,
            sessions DOUBLE PRECISION NOT NULL,
            squares DOUBLE PRECISION NOT NULL,
            trails BIGINT NOT NULL,
            PRIMARY KEY (project, release, screens)
        )
        """,
    ]
}
