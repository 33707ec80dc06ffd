import CrashtrailStore
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The connections one process keeps to its PostgreSQL store: opened on demand up to a limit, lent to one transaction
/// at a time, and closed when they fail or the pool goes away.
///
/// The store's calls are synchronous (the ingest writer, the commands), so a caller waits here for a free connection
/// instead of suspending; postgres-nio's own pool (`PostgresClient`) lends connections only to async code.
///
/// `@unchecked` because waiting for a free connection needs a condition variable, which `Mutex` does not offer: the
/// state is guarded by `condition`.
final class PostgresConnectionPool: @unchecked Sendable {
    private let configuration: PostgresConnection.Configuration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let maximum: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0

    init(configuration: PostgresConnection.Configuration, maximum: Int, logger: Logger) {
        self.configuration = configuration
        self.group = MultiThreadedEventLoopGroup.singleton
        self.logger = logger
        self.maximum = max(1, maximum)
    }

    deinit {
        for connection in idle { try? connection.close().wait(atMost: .seconds(5)) }
    }

    /// A connection of this pool's, waiting while all of them are lent.
    /// - Throws: the error that kept a new connection from opening.
    func lease() throws -> PostgresConnection {
        condition.lock()
        while true {
            while idle.isEmpty && open >= maximum { condition.wait() }
            guard let connection = idle.popLast() else { break }
            // One the server closed while it was idle (a restart, an idle timeout) is let go, not lent.
            guard connection.isClosed else {
                condition.unlock()
                return connection
            }
            open -= 1
        }
        open += 1
        nextID += 1
        let id = nextID
        condition.unlock()
        do {
            return try PostgresConnection.connect(on: group.next(), configuration: configuration, id: id, logger: logger)
                .wait(atMost: configuration.options.connectTimeout + .seconds(5))
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Takes back a lent connection: kept for the next caller when `reusable`, else closed.
    func release(_ connection: PostgresConnection, reusable: Bool) {
        let keep = reusable && !connection.isClosed
        if !keep { try? connection.close().wait(atMost: .seconds(5)) }
        condition.lock()
        if keep { idle.append(connection) } else { open -= 1 }
        condition.signal()
        condition.unlock()
    }
}
