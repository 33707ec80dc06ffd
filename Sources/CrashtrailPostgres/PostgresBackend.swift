import CrashtrailCore
import CrashtrailStore
import Dispatch
import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// The store on a PostgreSQL server, shared by any number of ingest workers on any machines and by every developer's
/// queries.
///
/// The queries are the store's own (`ReportStore`); this backend runs them in transactions on pooled
/// connections.
///
/// What it promises:
/// - Each report is stored once: the primary keys decide between workers storing the same report at once.
/// - The schema is migrated once, under an advisory lock, however many workers start together; a schema from a newer
///   crashtrail is refused.
/// - A transaction that fails because the connection was lost, the server restarted or two workers deadlocked is run
///   again, with a growing pause, for up to ``Options/retryWindow``; after that the job stops with the reason. Work
///   that was committed stays; a re-run of the job stores the rest, once.
package final class PostgresBackend: StoreBackend {
    package struct Options: Sendable {
        /// How long a job keeps retrying a transaction that fails for a reason that passes (a lost connection, a
        /// restarting server, a deadlock), in seconds.
        package var retryWindow: Double = 60
        /// How long opening waits for the server before it says it cannot reach it, in seconds.
        package var connectTimeout: Int64 = 10
        /// How long a statement's answer is waited for before its connection is taken as lost, in seconds.
        package var statementTimeout: Int64 = 30
        /// The clock the retry window is measured on.
        package var time: TimeSource = .system

        package init(retryWindow: Double = 60, connectTimeout: Int64 = 10, statementTimeout: Int64 = 30, time: TimeSource = .system) {
            self.retryWindow = retryWindow
            self.connectTimeout = connectTimeout
            self.statementTimeout = statementTimeout
            self.time = time
        }
    }

    package let place: PostgresLocation
    package var location: String { place.description }
    package var dialect: StoreDialect { .postgres }
    let options: Options
    let pool: PostgresConnectionPool
    let logger: Logger
    /// Write transactions committed through this backend, which decide when the count tables are compacted.
    private let writes = Atomic<Int>(0)

    /// Write transactions between two compactions of the count tables (``compact()``).
    static let writesPerCompaction = 32

    /// Connects to the server, checks the schema and migrates it.
    /// - Throws: `StoreError` (`cannot-open`) saying why the store cannot be used and what to do: the server refused
    ///   the connection, the password was wrong or missing, the database does not exist, the schema is a newer
    ///   crashtrail's.
    /// - Parameters:
    ///   - place: the server and database.
    ///   - options: the retry window and timeouts.
    ///   - willMigrate: told the migrations about to run on a database that already has crashtrail's tables, before
    ///     they run; not called for a new database or one that is up to date.
    package init(
        _ place: PostgresLocation, options: Options = Options(), willMigrate: (@Sendable ([String]) -> Void)? = nil
    ) throws(StoreError) {
        self.place = place
        self.options = options
        // A library prints nothing: postgres-nio's log goes nowhere.
        self.logger = Logger(label: "crashtrail.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls = try Self.tls(place.sslMode)
        } catch {
            throw StoreError(.cannotOpen, "could not set up TLS for the PostgreSQL store \(place): \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: place.host, port: place.port, username: place.user, password: place.password, database: place.database, tls: tls)
        configuration.options.connectTimeout = .seconds(options.connectTimeout)
        self.pool = PostgresConnectionPool(configuration: configuration, maximum: place.poolSize, logger: logger)
        do {
            try migrate(willMigrate)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.openingError(error, place: place)
        }
    }

    static func tls(_ mode: PostgresLocation.SSLMode) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return .disable
        case .prefer, .require:
            // As libpq: these modes encrypt without checking the server's certificate.
            configuration.certificateVerification = .none
            let context = try NIOSSLContext(configuration: configuration)
            return mode == .prefer ? .prefer(context) : .require(context)
        case .verifyFull:
            return .require(try NIOSSLContext(configuration: configuration))
        }
    }

    // MARK: Transactions

    package func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    package func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        let value = try transaction(begin: "BEGIN", body)
        if writes.add(1, ordering: .relaxed).newValue % Self.writesPerCompaction == 0 { compact() }
        return value
    }

    /// Folds the delta rows of the group count tables into one row per key (`crashtrail_compact_counts()`, migration
    /// `v7`), so a group's counts stay a few rows to sum however many reports arrive, and the path counts' rows of the
    /// keys that lost reports (`crashtrail_compact_path_counts()`, migration `v9`).
    ///
    /// Runs after every `writesPerCompaction` write transactions, in a transaction of its own that takes only
    /// committed rows, so it waits on no worker; when another worker is compacting, it does nothing. A failure is
    /// left to the next one: the rows sum to the same counts compacted or not.
    package func compact() {
        _ = try? attempt(begin: "BEGIN") { transaction in
            try transaction.execute("SELECT crashtrail_compact_counts(), crashtrail_compact_path_counts()", [])
        }
    }

    /// Runs `body` between `begin` and COMMIT on a pooled connection, again after a failure that passes.
    private func transaction<T>(begin: String, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let deadline = options.time.uptimeNanoseconds() + UInt64(max(0, options.retryWindow) * 1e9)
        var pause = 0.1
        while true {
            do {
                return try attempt(begin: begin, body)
            } catch {
                guard Self.passes(error), options.time.uptimeNanoseconds() + UInt64(pause * 1e9) < deadline else {
                    throw Self.failure(error, place: place, retried: Self.passes(error))
                }
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 2)
            }
        }
    }

    private func attempt<T>(begin: String, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let connection = try pool.lease()
        var reusable = false
        defer { pool.release(connection, reusable: reusable) }
        let transaction = PostgresTransaction(connection, logger: logger, timeout: .seconds(options.statementTimeout))
        try transaction.run(begin)
        do {
            let value = try body(transaction)
            try transaction.run("COMMIT")
            reusable = true
            return value
        } catch {
            // A connection whose transaction was rolled back cleanly serves the next one.
            reusable = (try? transaction.run("ROLLBACK")) != nil
            throw error
        }
    }

    // MARK: Schema

    /// Applies the migrations this version has and the server's schema lacks, one worker at a time.
    private func migrate(_ willMigrate: (@Sendable ([String]) -> Void)?) throws {
        let connection = try pool.lease()
        var reusable = false
        defer { pool.release(connection, reusable: reusable) }
        let transaction = PostgresTransaction(connection, logger: logger, timeout: .seconds(options.statementTimeout))
        try transaction.run("BEGIN")
        do {
            try transaction.execute("SELECT pg_advisory_xact_lock(?)", [.integer(PostgresMigrations.lockKey)])
            try transaction.run(
                "CREATE TABLE IF NOT EXISTS \(PostgresMigrations.table) (identifier TEXT PRIMARY KEY NOT NULL, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            let applied = Set(try transaction.strings("SELECT identifier FROM \(PostgresMigrations.table)"))
            let known = Set(PostgresMigrations.all.map(\.identifier))
            let unknown = applied.subtracting(known).sorted()
            guard unknown.isEmpty else { throw StoreError.newerSchema(unknown) }
            let pending = PostgresMigrations.all.map(\.identifier).filter { !applied.contains($0) }
            if !applied.isEmpty, !pending.isEmpty { willMigrate?(pending) }
            for migration in PostgresMigrations.all where !applied.contains(migration.identifier) {
                for statement in migration.statements { try transaction.run(statement) }
                try transaction.execute("INSERT INTO \(PostgresMigrations.table) (identifier) VALUES (?)", [.text(migration.identifier)])
            }
            try transaction.run("COMMIT")
            reusable = true
        } catch {
            reusable = (try? transaction.run("ROLLBACK")) != nil
            throw error
        }
    }

    // MARK: Errors

    /// SQLSTATE classes and codes of failures that pass: a serialization failure or deadlock between workers, the
    /// server shutting down or starting, a connection lost.
    static let passingStates: Set<String> = ["40001", "40P01", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]

    /// Whether running the transaction again may succeed.
    static func passes(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                return error.serverInfo?[.sqlState].map(passingStates.contains) ?? false
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
                return true
            default:
                return false
            }
        }
        if error is PostgresTransaction.UnansweredError { return true }
        // A refused or reset connection while reconnecting.
        return error is IOError || error is ChannelError || error is NIOConnectionError
    }

    /// What a failed transaction is told as.
    static func failure(_ error: any Error, place: PostgresLocation, retried: Bool) -> any Error {
        if let error = error as? StoreError { return error }
        guard
            error is PSQLError || error is IOError || error is ChannelError || error is NIOConnectionError
                || error is PostgresTransaction.UnansweredError
        else { return error }
        let reason = describe(error)
        if retried {
            return StoreError(
                .database,
                "the PostgreSQL store \(place) could not be reached (\(reason)), and it was retried until the retry time ran out; what was stored before stays stored, so run the job again once the server is back"
            )
        }
        return StoreError(.database, "the PostgreSQL store \(place) refused a statement: \(reason)")
    }

    /// The message for an error met while opening the store, with what to do.
    static func openingError(_ error: any Error, place: PostgresLocation) -> StoreError {
        let reason = describe(error)
        if let error = error as? PSQLError {
            switch error.serverInfo?[.sqlState] {
            case "28P01", "28000":
                let hint =
                    place.hasPassword
                    ? "check the password in PGPASSWORD or the password file (~/.pgpass)"
                    : "no password was found: set PGPASSWORD or add a line host:port:database:user:password to ~/.pgpass (mode 0600)"
                return StoreError(.cannotOpen, "the PostgreSQL server refused the sign-in of \(place.user) to \(place): \(reason); \(hint)")
            case "3D000":
                return StoreError(
                    .cannotOpen,
                    "the PostgreSQL store \(place) does not exist: \(reason); create it with createdb -h \(place.host) -p \(place.port) -U \(place.user) \(place.database)"
                )
            default:
                if error.code == .authMechanismRequiresPassword {
                    return StoreError(
                        .cannotOpen,
                        "the PostgreSQL server asks \(place.user) for a password to open \(place) and none was found; set PGPASSWORD or add a line host:port:database:user:password to ~/.pgpass (mode 0600)"
                    )
                }
            }
        }
        if passes(error) {
            return StoreError(
                .cannotOpen,
                "could not connect to the PostgreSQL store \(place): \(reason); check that the server is running and accepts connections on \(place.host):\(place.port)"
            )
        }
        return StoreError(.cannotOpen, "could not open the PostgreSQL store \(place): \(reason)")
    }

    /// An error in one line: the server's message and code, or the connection's failure.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
