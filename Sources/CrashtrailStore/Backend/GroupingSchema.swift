/// The text of the migrations that keep grouping rules and merges (SQLite `v17: grouping rules`, PostgreSQL
/// `v14: grouping rules`; SPEC section 21).
///
/// - `groupingRules`: a project's rules in Sentry's syntax, as the team wrote them; project 0 is store-wide.
/// - `groupMerge`: a merged signature and the signature it was merged into (`crashtrail group merge`), per project (0
///   store-wide), so a merge outlives reprocessing.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum GroupingSchema {
    /// SQLite's statements.
    package static let sqlite = """
        CREATE TABLE groupingRules (
            project INTEGER PRIMARY KEY,
            rules TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        CREATE TABLE groupMerge (
            project INTEGER NOT NULL,
            signature TEXT NOT NULL,
            mergedInto TEXT NOT NULL,
            merged TEXT NOT NULL,
            PRIMARY KEY (project, signature)
        ) WITHOUT ROWID;
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        """
        CREATE TABLE groupingRules (
            project BIGINT PRIMARY KEY,
            rules TEXT NOT NULL,
            updated TEXT COLLATE "C" NOT NULL
        )
        """,
        """
        CREATE TABLE groupMerge (
            project BIGINT NOT NULL,
            signature TEXT COLLATE "C" NOT NULL,
            mergedInto TEXT COLLATE "C" NOT NULL,
            merged TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (project, signature)
        )
        """,
    ]
}
