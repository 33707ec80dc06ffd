/// The text of the migrations that add the forwarding outbox (SQLite `v14: forwarding outbox`, PostgreSQL
/// `v11: forwarding outbox`): one row for each report and upstream it is to reach (SPEC section 17), written in the
/// transaction that stores the report, so what `serve` acknowledged is forwarded even if the process dies the next
/// instant.
///
/// - `upstream`: the upstream's DSN without its key (`https://sentry.example.com/42`);
/// - `state`: `waiting`, `delivered` or `setAside` (an answer that can never succeed, with its `reason`);
/// - `due`: not to be sent before this time (milliseconds since 1970): a retry's backoff, a `Retry-After`;
/// - `claimedUntil`: a sender holds the row until then; another sender takes it only after (its process died);
/// - `attempts`, `queued`, `delivered`: how many sends were tried, when it was queued, when it was delivered.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum ForwardSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE forwardOutbox (
            reportID TEXT NOT NULL REFERENCES report(id) ON DELETE CASCADE,
            upstream TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            due INTEGER NOT NULL,
            claimedUntil INTEGER NOT NULL,
            reason TEXT,
            queued INTEGER NOT NULL,
            delivered INTEGER,
            PRIMARY KEY (reportID, upstream)
        ) WITHOUT ROWID;
        CREATE INDEX forwardOutbox_due ON forwardOutbox(upstream, due) WHERE state = 'waiting';
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE forwardOutbox (
            reportID TEXT COLLATE "C" NOT NULL REFERENCES report(id) ON DELETE CASCADE,
            upstream TEXT COLLATE "C" NOT NULL,
            state TEXT COLLATE "C" NOT NULL,
            attempts INTEGER NOT NULL,
            due BIGINT NOT NULL,
            claimedUntil BIGINT NOT NULL,
            reason TEXT,
            queued BIGINT NOT NULL,
            delivered BIGINT,
            PRIMARY KEY (reportID, upstream)
        )
        """,
        "CREATE INDEX forwardOutbox_due ON forwardOutbox(upstream, due) WHERE state = 'waiting'",
    ]
}
