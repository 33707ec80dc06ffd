import CrashtrailStore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A ``StoreTransaction`` on one PostgreSQL connection: the store's `?` placeholders become `$1`, `$2`, …, each query
/// waits for its answer on the calling thread, and ``forEachRow(_:_:_:)`` reads through a server-side cursor, a page
/// at a time, so a listing of any size takes bounded memory.
final class PostgresTransaction: StoreTransaction {
    let connection: PostgresConnection
    let logger: Logger
    /// How long a statement's answer is waited for before the connection is given up as lost.
    let timeout: TimeAmount
    var dialect: StoreDialect { .postgres }
    private var cursors = 0

    init(_ connection: PostgresConnection, logger: Logger, timeout: TimeAmount) {
        self.connection = connection
        self.logger = logger
        self.timeout = timeout
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try answer(try Self.query(sql, arguments)).metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        let answer = try answer(try Self.query(sql, arguments))
        // Every row has the same columns, so they are named once; a text equal to the one the same column held in the
        // row before is that string again, not a new one (a group's path counts share their app and manifest).
        var names: [String]?
        var previous: [StoreValue] = []
        return answer.rows.map { row in
            let columns = names ?? row.map(\.columnName)
            names = columns
            var values: [StoreValue] = []
            values.reserveCapacity(columns.count)
            for (index, cell) in row.enumerated() {
                values.append(Self.value(cell, before: index < previous.count ? previous[index] : .null))
            }
            previous = values
            return StoreRow(names: columns, values: values)
        }
    }

    /// The server's answer to `query`, waited for on this thread for at most ``timeout``.
    ///
    /// A connection that a restarting server cut can leave a statement unanswered; the wait then ends with
    /// ``UnansweredError``, which the backend treats as a lost connection.
    private func answer(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try connection.query(query, logger: logger).wait(atMost: timeout)
    }

    /// A statement the server did not answer in time.
    struct UnansweredError: Error, CustomStringConvertible {
        let seconds: Int64
        var description: String { "the server did not answer a statement within \(seconds) s" }
    }

    /// Rows read from the cursor at a time.
    static let cursorPage = 256

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Void) throws {
        cursors += 1
        let name = "crashtrail_cursor_\(cursors)"
        try execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", arguments)
        while true {
            let page = try rows("FETCH FORWARD \(Self.cursorPage) FROM \(name)", [])
            for row in page { try body(row) }
            if page.count < Self.cursorPage { break }
        }
        try execute("CLOSE \(name)", [])
    }

    /// Runs a statement with no arguments (BEGIN, COMMIT, …).
    func run(_ sql: String) throws {
        _ = try answer(PostgresQuery(unsafeSQL: sql))
    }

    /// The query with `?` placeholders numbered and the arguments bound with their types.
    static func query(_ sql: String, _ arguments: [StoreValue]) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let value): bindings.append(value)
            case .real(let value): bindings.append(value)
            // PostgreSQL's text cannot hold U+0000; it is stored as U+2400 (␀), and the store's digest reads both alike.
            case .text(let value):
                bindings.append(value.holdsNUL ? value.replacingOccurrences(of: "\u{0}", with: "\u{2400}") : value)
            case .blob(let value): try bindings.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: PlaceholderNumbering.numbered(sql), binds: bindings)
    }

    /// The value of `cell`; `before` when it is the same text.
    static func value(_ cell: PostgresCell, before: StoreValue) -> StoreValue {
        guard let bytes = cell.bytes else { return .null }
        if cell.dataType == .text || cell.dataType == .varchar, bytes.withUnsafeReadableBytes(before.isText(equalTo:)) {
            return before
        }
        switch cell.dataType {
        case .int2: return (try? cell.decode(Int16.self)).map { .integer(Int64($0)) } ?? .null
        case .int4: return (try? cell.decode(Int32.self)).map { .integer(Int64($0)) } ?? .null
        case .int8: return (try? cell.decode(Int64.self)).map(StoreValue.integer) ?? .null
        case .float4, .float8: return (try? cell.decode(Double.self)).map(StoreValue.real) ?? .null
        case .bool: return (try? cell.decode(Bool.self)).map { .integer($0 ? 1 : 0) } ?? .null
        case .bytea: return (try? cell.decode(Data.self)).map(StoreValue.blob) ?? .null
        case .numeric: return (try? cell.decode(Decimal.self)).map { .text("\($0)") } ?? .null
        default: return (try? cell.decode(String.self)).map(StoreValue.text) ?? .null
        }
    }
}

/// Turns the store's `?` placeholders into PostgreSQL's `$1`, `$2`, …, leaving quoted text and identifiers alone.
enum PlaceholderNumbering {
    private static let cache = NIOLockedValueBox<[String: String]>([:])

    static func numbered(_ sql: String) -> String {
        if let known = cache.withLockedValue({ $0[sql] }) { return known }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        cache.withLockedValue { cache in
            if cache.count < 512 { cache[sql] = result }
        }
        return result
    }
}

extension EventLoopFuture where Value: Sendable {
    /// Waits on this thread for the value, for at most `limit`.
    /// - Throws: the future's error, or ``PostgresTransaction/UnansweredError`` when `limit` passed first.
    func wait(atMost limit: TimeAmount) throws -> Value {
        let promise = eventLoop.makePromise(of: Value.self)
        cascade(to: promise)
        let deadline = eventLoop.scheduleTask(in: limit) {
            promise.fail(PostgresTransaction.UnansweredError(seconds: limit.nanoseconds / 1_000_000_000))
        }
        defer { deadline.cancel() }
        return try promise.futureResult.wait()
    }
}
