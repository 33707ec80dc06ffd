import CrashtrailCore
import CrashtrailEncoding
import Foundation
import GRDB

/// The store of ingested crashes: reports, their trails, groups and manifests, over a `StoreBackend` (the embedded
/// SQLite file by default, or a shared PostgreSQL server).
///
/// Every query is written once, here and in its extensions;
/// the backends run them.
///
/// Tests give it a `DatabaseQueue()` (in memory); the CLI opens a file with ``open(path:willMigrate:)`` (a WAL `DatabasePool`) or
/// a PostgreSQL server through `CrashtrailPostgres`.
public final class ReportStore: Sendable {
    /// The database this store's queries run on.
    package let backend: any StoreBackend

    /// A store over an opened (and migrated) backend.
    package init(backend: any StoreBackend) {
        self.backend = backend
    }

    /// A store over a GRDB database, migrated to the current schema.
    /// - Throws: `StoreError` (`cannot-open`) when the schema is a newer crashtrail's or the migration fails.
    package convenience init(_ writer: any DatabaseWriter) throws(StoreError) {
        self.init(backend: try SQLiteBackend(writer))
    }

    /// Opens (creating if needed) the SQLite store file at `path` (`SQLiteBackend/open(path:willMigrate:)`).
    /// - Parameters:
    ///   - path: the store file.
    ///   - willMigrate: told the migrations about to run on an existing store, before they run.
    /// - Returns: the store, migrated.
    /// - Throws: `StoreError` (`cannot-open`) naming the path.
    public static func open(path: String, willMigrate: (@Sendable ([String]) -> Void)? = nil) throws(StoreError) -> ReportStore {
        ReportStore(backend: try SQLiteBackend.open(path: path, willMigrate: willMigrate))
    }

    /// Where the store is, for messages: a path, or a `postgres://` URL without its password.
    public var location: String { backend.location }

    /// The local files the store keeps, which an ingest must not read as inputs (`StoreBackend/localFiles`).
    public var localFiles: [String] { backend.localFiles }

    /// The dialect of the store's backend.
    package var dialect: StoreDialect { backend.dialect }

    /// Runs `updates` in one write transaction.
    ///
    /// The backend may run it again after a failure it recovers from (``StoreBackend/write(_:)``), so `updates` must
    /// start from the same state each time.
    /// - Throws: `StoreError`: the backend's, or `database` wrapping the failure.
    @discardableResult
    package func write<T>(_ updates: (any StoreTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try backend.write(updates)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "writing to the crash store \(location) failed: \(error)", cause: error)
        }
    }

    /// Folds the backend's pieces of counts (``StoreBackend/compact()``); jobs that wrote many transactions call it at
    /// their end.
    package func compact() {
        backend.compact()
    }

    /// Runs `query` in one read transaction.
    /// - Throws: `StoreError`: the backend's, or `database` wrapping the failure.
    package func read<T>(_ query: (any StoreTransaction) throws -> T) throws(StoreError) -> T {
        do {
            return try backend.read(query)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "reading the crash store \(location) failed: \(error)", cause: error)
        }
    }
}
