/// The text of the migrations that let a service face the internet (SQLite `v19: tokens and limits`, PostgreSQL
/// `v16: tokens and limits`; SPEC section 19).
///
/// - `token`: the tokens `crashtrail project token add` made, each kept as the SHA-256 of its value (`hash`, hex), never
///   the value; `hint` is its first 8 characters, so `project token list` can tell tokens apart; `project` is the project
///   it opens, or NULL for an operator's token (`--all-projects`); `scopes` its scopes joined by commas (`read`,
///   `debug-files`); `created` in milliseconds since 1970; a revoked token's row stays, with `revoked` 1.
/// - `project.eventsPerMinute`: the project's rate limit (`crashtrail project limit`), NULL for the service's default.
/// - `uploadChunk.project`: the project whose upload kept the chunk, so chunks count against that project's quota; chunks
///   kept before have project 0 and count against nobody's.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum TrustSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE token (
            id INTEGER PRIMARY KEY NOT NULL,
            project INTEGER,
            scopes TEXT NOT NULL,
            hash TEXT NOT NULL UNIQUE,
            hint TEXT NOT NULL,
            created INTEGER NOT NULL,
            revoked INTEGER NOT NULL DEFAULT 0
        );
        ALTER TABLE project ADD COLUMN eventsPerMinute INTEGER;
        ALTER TABLE uploadChunk ADD COLUMN project INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX uploadChunk_project ON uploadChunk(project);
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE token (
            id BIGINT PRIMARY KEY NOT NULL,
            project BIGINT,
            scopes TEXT COLLATE "C" NOT NULL,
            hash TEXT COLLATE "C" NOT NULL UNIQUE,
            hint TEXT COLLATE "C" NOT NULL,
            created BIGINT NOT NULL,
            revoked INTEGER NOT NULL DEFAULT 0
        )
        """,
        "ALTER TABLE project ADD COLUMN eventsPerMinute BIGINT",
        "ALTER TABLE uploadChunk ADD COLUMN project BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX uploadChunk_project ON uploadChunk(project)",
    ]
}
