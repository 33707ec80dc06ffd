/// A database a ``ReportStore`` keeps its reports in: the embedded SQLite file (``SQLiteBackend``) or a shared
/// PostgreSQL server (the `CrashtrailPostgres` module).
///
/// The store's queries are the same on both; a backend runs them in transactions and owns the schema, migrated when it
/// is opened.
package protocol StoreBackend: Sendable {
    /// How this backend spells what the two SQL dialects spell differently.
    var dialect: StoreDialect { get }

    /// Where the store is, for messages: a path, or a `postgres://` URL without its password.
    var location: String { get }

    /// The local files the store keeps (an SQLite file and the files SQLite keeps beside it), which an ingest of a
    /// folder must not read as inputs; none for a server.
    var localFiles: [String] { get }

    /// Runs `body` in a read-only transaction that sees one consistent state of the store.
    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T

    /// Runs `body` in one write transaction: all of it is stored, or none of it.
    ///
    /// A backend may run `body` again after a failure it can recover from (a lost connection, a deadlock between
    /// workers), so `body` must start from the same state each time it runs: keep what it counts inside it.
    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T

    /// Folds what the backend keeps in pieces so that writers working at once never wait on each other: PostgreSQL's
    /// group count deltas, one row per key after it. A job that wrote many transactions calls it once at its end;
    /// the counts read the same before and after.
    func compact()
}

extension StoreBackend {
    package var localFiles: [String] { [] }

    /// Nothing to fold: SQLite keeps one row per count.
    package func compact() {}
}
