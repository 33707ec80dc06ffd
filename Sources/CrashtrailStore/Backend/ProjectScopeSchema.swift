/// The text of the migrations that let a project's reads find its reports and key upload chunks by project (SQLite
/// `v21: reads and upload chunks per project`, PostgreSQL `v18: reads and upload chunks per project`; SPEC section 19).
///
/// - `report_project`: the reports of every project but the first, by project and signature. A read of one project
///   (a project's `read` token, `?project=` or `--project`) takes its reports by this index. The reports of the first
///   project are left out of it, so a store of one project, the common case, pays nothing for it when it ingests: its
///   reads are the store's, from the kept counts; the first project's reads in a store of several are those counts
///   less the other projects' reports (`ReportStore.groups(_:)`).
/// - `uploadChunk`: keyed by the project whose token sent the chunk and its SHA-1, so one project's assemble neither
///   reads nor forgets the chunks another project sent, and each project's chunks count against its own quota.
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum ProjectScopeSchema {
    /// The index of the reports of every project but the first: the one text both backends run.
    static let reportIndex = "CREATE INDEX report_project ON report(project, signature) WHERE project <> 1"

    /// SQLite's statements.
    package static let sqlite = """
        \(reportIndex);
        CREATE TABLE uploadChunkByProject (
            project INTEGER NOT NULL,
            sha1 TEXT NOT NULL,
            data BLOB NOT NULL,
            added TEXT NOT NULL,
            PRIMARY KEY (project, sha1)
        ) WITHOUT ROWID;
        INSERT INTO uploadChunkByProject (project, sha1, data, added) SELECT project, sha1, data, added FROM uploadChunk;
        DROP TABLE uploadChunk;
        ALTER TABLE uploadChunkByProject RENAME TO uploadChunk;
        """

    /// PostgreSQL's statements.
    package static let postgres = [
        reportIndex,
        "ALTER TABLE uploadChunk DROP CONSTRAINT uploadchunk_pkey",
        "ALTER TABLE uploadChunk ADD PRIMARY KEY (project, sha1)",
        "DROP INDEX uploadChunk_project",
    ]
}
