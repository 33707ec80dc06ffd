import CrashtrailCore
import CrashtrailPostgres
import CrashtrailStore
import Foundation

/// Where a command's crash store is: a path of an SQLite file or a `postgres://` URL, as `--store`, else
/// `CRASHTRAIL_STORE`, else `crashtrail.sqlite` in the working directory names it (SPEC section 8).
public struct StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// The path or URL, as given.
    public let name: String
    /// Told the migrations about to run when the store is opened, if it has tables of an earlier version.
    ///
    /// The command line says on a terminal that the store is being upgraded. Locations are equal when they name the
    /// same store.
    public var willUpgrade: (@Sendable ([String]) -> Void)?
    /// Where a PostgreSQL store's `PGUSER`, `PGPASSWORD` and `PGPASSFILE` are read.
    private let environment: [String: String]

    /// The environment variable that names the default store.
    public static let environmentVariable = "CRASHTRAIL_STORE"
    /// The store file used when nothing else names one.
    public static let defaultPath = "crashtrail.sqlite"

    /// The store `name` names, else `CRASHTRAIL_STORE`, else the default file.
    /// - Parameters:
    ///   - name: the path or URL given, if any.
    ///   - environment: where `CRASHTRAIL_STORE` is read.
    ///   - willUpgrade: told the migrations about to run on an existing store when it is opened.
    public init(
        _ name: String?, environment: [String: String] = ProcessEnvironment.current(),
        willUpgrade: (@Sendable ([String]) -> Void)? = nil
    ) {
        self.willUpgrade = willUpgrade
        self.environment = environment
        if let name, !name.isEmpty {
            self.name = name
        } else if let path = environment[Self.environmentVariable], !path.isEmpty {
            self.name = path
        } else {
            self.name = Self.defaultPath
        }
    }

    public static func == (lhs: StoreLocation, rhs: StoreLocation) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Whether it names a PostgreSQL store.
    public var isPostgres: Bool { PostgresLocation.isPostgresURL(name) }

    /// Whether a store may be there to read: an SQLite file that exists, or any PostgreSQL URL (the server says).
    public var mayExist: Bool { isPostgres || FileManager.default.fileExists(atPath: name) }

    /// The store's name for messages: a path, or the URL without its password.
    public var description: String {
        guard isPostgres else { return name }
        return (try? PostgresLocation(name, environment: environment).description) ?? "the PostgreSQL store"
    }

    /// How pages name the store: an SQLite file's name, or a PostgreSQL store's database.
    public var siteName: String {
        isPostgres
            ? ((try? PostgresLocation(name, environment: environment).database) ?? "PostgreSQL")
            : URL(fileURLWithPath: name).lastPathComponent
    }

    /// Opens the store, making an SQLite file that is missing: for commands that write.
    /// - Throws: `StoreError` naming the store.
    public func openOrCreate() throws -> ReportStore {
        if isPostgres {
            return ReportStore(backend: try PostgresBackend(try PostgresLocation(name, environment: environment), willMigrate: willUpgrade))
        }
        return try ReportStore.open(path: name, willMigrate: willUpgrade)
    }

    /// Opens a store that must exist: for commands that only read it (a missing SQLite file is not made).
    /// - Throws: ``StoreLocationError`` naming the path and how to fill a store, or `StoreError`.
    public func openExisting() throws -> ReportStore {
        guard mayExist else { throw StoreLocationError.noStore(at: self) }
        return try openOrCreate()
    }
}

/// A store that cannot be used where a command looked.
public struct StoreLocationError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

        /// No store where a reading command looked.
        public static let noStore = Code(name: "no-store")
    }

    public var code: Code
    public var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: where the command looked, and how to fill or name a store.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// No store at `location`.
    static func noStore(at location: StoreLocation) -> StoreLocationError {
        StoreLocationError(
            .noStore,
            "there is no crash store at \(location.name); fill one with crashtrail ingest PATH…, or pass --store (or set $\(StoreLocation.environmentVariable)) to the store it filled"
        )
    }
}
