import Foundation
import GRDB
import GRDBSQLite

/// A ``StoreTransaction`` over a GRDB database connection, with statements cached by their SQL.
final class SQLiteTransaction: StoreTransaction {
    let db: Database
    var dialect: StoreDialect { .sqlite }

    init(_ db: Database) {
        self.db = db
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try prepared(sql, arguments).execute()
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Void) throws {
        let statement = try prepared(sql, arguments)
        let cursor = try Row.fetchCursor(statement)
        // The cursor steps the statement; its columns are read from SQLite directly. A text equal to the one the same
        // column held in the row before is that string again, not a new one: a listing's rows share their app,
        // version and format, and a group's path counts their app and manifest.
        let handle = statement.sqliteStatement
        var names: [String]?
        var values: [StoreValue] = []
        while try cursor.next() != nil {
            if names == nil {
                // Named after the first step, not at preparation: a connection that read the schema before a migration
                // prepares a statement again at its first step, and a `SELECT *` then has the migrated columns.
                let count = Int(sqlite3_column_count(handle))
                names = (0..<count).map { sqlite3_column_name(handle, CInt($0)).map { String(cString: $0) } ?? "" }
                values = [StoreValue](repeating: .null, count: count)
            }
            for column in values.indices {
                values[column] = Self.value(handle, column: CInt(column), before: values[column])
            }
            try body(StoreRow(names: names ?? [], values: values))
        }
    }

    /// The value in `column` of the statement's current row; `before` when it is the same text.
    static func value(_ statement: SQLiteStatement, column: CInt, before: StoreValue) -> StoreValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let start = sqlite3_column_text(statement, column) else { return .text("") }
            let text = UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, column)))
            return before.isText(equalTo: UnsafeRawBufferPointer(text)) ? before : .text(String(decoding: text, as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let start = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
            return .blob(Data(bytes: start, count: count))
        default:
            return .null
        }
    }

    /// The statement of `sql` with `arguments` bound.
    ///
    /// GRDB binds a text up to its first NUL, so a text holding one is bound again, whole.
    private func prepared(_ sql: String, _ arguments: [StoreValue]) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(Self.arguments(arguments))
        for (index, argument) in arguments.enumerated() {
            guard case .text(var text) = argument, text.holdsNUL else { continue }
            let code = text.withUTF8 { bytes in
                sqlite3_bind_text(statement.sqliteStatement, CInt(index + 1), bytes.baseAddress, CInt(bytes.count), Self.transient)
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding a text") }
        }
        return statement
    }

    /// SQLite's `SQLITE_TRANSIENT`: the bound bytes are copied.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    static func arguments(_ values: [StoreValue]) -> StatementArguments {
        StatementArguments(values.map(databaseValue))
    }

    static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .real(let value): return value.databaseValue
        case .text(let value): return value.databaseValue
        case .blob(let value): return value.databaseValue
        }
    }
}
