/// The text of the migrations that join trails by session and keep trails that arrive before their crash (SQLite
/// `v15: session joins and waiting trails`, PostgreSQL `v12: session joins and waiting trails`; SPEC section 18).
///
/// - `reportSession`: the session ID a crash report carries (`crashtrail.session`, set by the recorder at launch),
///   by report, so a trail joins the crash of its own session however long ago the process was started;
/// - `waitingTrail`: a separate trail no stored crash awaited when it came (the journal is uploaded at the next
///   launch, often before the crash report), with the values its `joinedTrail` row will take, until its crash comes
///   or it expires: `received` (milliseconds since 1970) and `size` (the trail's canonical JSON, in bytes) bound it.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum SessionJoinSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE reportSession (
            id TEXT PRIMARY KEY REFERENCES report(id) ON DELETE CASCADE,
            bundleID TEXT NOT NULL,
            session TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX reportSession_session ON reportSession(bundleID, session);
        CREATE TABLE waitingTrail (
            bundleID TEXT NOT NULL,
            session TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started INTEGER NOT NULL,
            received INTEGER NOT NULL,
            size INTEGER NOT NULL,
            steps INTEGER NOT NULL,
            trail TEXT NOT NULL,
            dictionary TEXT,
            screenPath TEXT,
            pathManifest TEXT,
            crashScreen TEXT,
            PRIMARY KEY (bundleID, session)
        ) WITHOUT ROWID;
        CREATE INDEX waitingTrail_launch ON waitingTrail(bundleID, pid, started);
        CREATE INDEX waitingTrail_received ON waitingTrail(received);
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE reportSession (
            id TEXT COLLATE "C" PRIMARY KEY REFERENCES report(id) ON DELETE CASCADE,
            bundleID TEXT COLLATE "C" NOT NULL,
            session TEXT COLLATE "C" NOT NULL
        )
        """,
        "CREATE INDEX reportSession_session ON reportSession(bundleID, session)",
        """
        CREATE TABLE waitingTrail (
            bundleID TEXT COLLATE "C" NOT NULL,
            session TEXT COLLATE "C" NOT NULL,
            pid BIGINT NOT NULL,
            started BIGINT NOT NULL,
            received BIGINT NOT NULL,
            size BIGINT NOT NULL,
            steps BIGINT NOT NULL,
            trail TEXT NOT NULL,
            dictionary TEXT,
            screenPath TEXT,
            pathManifest TEXT,
            crashScreen TEXT,
            PRIMARY KEY (bundleID, session)
        )
        """,
        "CREATE INDEX waitingTrail_launch ON waitingTrail(bundleID, pid, started)",
        "CREATE INDEX waitingTrail_received ON waitingTrail(received)",
    ]
}
