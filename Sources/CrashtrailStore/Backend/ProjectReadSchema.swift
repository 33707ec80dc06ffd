/// The text of the migrations that let a project's reads find its reports (SQLite `v21: reports found by project`,
/// PostgreSQL `v18: reports found by project`; SPEC section 19).
///
/// - `report_project`: the reports of every project but the first, by project and signature. A read of one project
///   (a project's `read` token, `?project=` or `--project`) takes its reports by this index. The reports of the first
///   project are left out of it, so a store of one project, the common case, pays nothing for it when it ingests: its
///   reads are the store's, from the kept counts; the first project's reads in a store of several are those counts
///   less the other projects' reports (`ReportStore.groups(_:)`).
///
/// Released with those migrations: never edited. A later schema change is a migration of its own.
package enum ProjectReadSchema {
    /// The one statement both backends run.
    static let index = "CREATE INDEX report_project ON report(project, signature) WHERE project <> 1"

    /// SQLite's statements.
    package static let sqlite = index

    /// PostgreSQL's statements.
    package static let postgres = [index]
}
