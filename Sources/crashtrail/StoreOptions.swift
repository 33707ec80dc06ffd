import ArgumentParser
import CrashtrailCollector
import CrashtrailPostgres
import Foundation

/// The crash store a command reads or writes: `--store`, else `CRASHTRAIL_STORE`, else `crashtrail.sqlite` in
/// the working directory (SPEC section 8). A `postgres://` URL names a PostgreSQL store; anything else is an SQLite
/// file. Shared by every command that takes a store.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The crash store: an SQLite file, or postgres://USER@HOST:PORT/DB for a shared PostgreSQL store (password from PGPASSWORD or ~/.pgpass). Defaults to $CRASHTRAIL_STORE, else crashtrail.sqlite in the working directory.",
            valueName: "store"))
    var store: String?

    /// The environment variable that names the default store.
    static let environmentVariable = "CRASHTRAIL_STORE"
    /// The store file used when nothing else names one.
    static let defaultPath = "crashtrail.sqlite"

    /// The store this command uses: a path or a URL.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let store, !store.isEmpty { return store }
        if let path = environment[Self.environmentVariable], !path.isEmpty { return path }
        return Self.defaultPath
    }

    /// Opens (creating if needed) the store.
    /// - Throws: `StoreError` naming the store.
    func open() throws -> ReportStore {
        try Self.open(resolvedPath(), creating: true)
    }

    /// Opens the store, refusing to create an SQLite file: for commands that only read it.
    /// - Throws: `MissingStore` naming the path and how to fill a store, or `StoreError`.
    func openExisting() throws -> ReportStore {
        try Self.open(resolvedPath(), creating: false)
    }

    /// The one place that turns a store's name into a store: a `postgres://` URL opens the PostgreSQL backend, any
    /// other name the SQLite file.
    /// - Parameter creating: whether a missing SQLite file is made (a PostgreSQL database must exist; its tables are
    ///   made when missing).
    /// - Throws: `MissingStore`, or `StoreError` naming the store.
    static func open(_ name: String, creating: Bool) throws -> ReportStore {
        if PostgresLocation.isPostgresURL(name) {
            return ReportStore(backend: try PostgresBackend(try PostgresLocation(name)))
        }
        guard creating || FileManager.default.fileExists(atPath: name) else { throw MissingStore(path: name) }
        return try ReportStore.open(path: name)
    }

    /// Whether a store may be there to read: an SQLite file that exists, or any PostgreSQL URL (the server says).
    static func mayExist(_ name: String) -> Bool {
        PostgresLocation.isPostgresURL(name) || FileManager.default.fileExists(atPath: name)
    }

    /// The store's name for messages and pages: a path, or the URL without its password.
    static func displayName(_ name: String) -> String {
        guard PostgresLocation.isPostgresURL(name) else { return name }
        return (try? PostgresLocation(name).description) ?? "the PostgreSQL store"
    }

    /// No store where a reading command looked.
    struct MissingStore: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "there is no crash store at \(path); fill one with crashtrail ingest PATH…, or pass --store (or set $\(StoreOptions.environmentVariable)) to the store it filled"
        }
    }
}
