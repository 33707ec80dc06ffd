import Foundation
import GRDB

/// A ``StoreTransaction`` over a GRDB database connection, with statements cached by their SQL.
final class SQLiteTransaction: StoreTransaction {
    let db: Database
    var dialect: StoreDialect { .sqlite }

    init(_ db: Database) {
        self.db = db
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let names = statement.columnNames
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
        while let row = try cursor.next() {
            try body(StoreRow(names: names, values: (0..<row.count).map { Self.value(row[$0] as DatabaseValue) }))
        }
    }

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

    static func value(_ value: DatabaseValue) -> StoreValue {
        switch value.storage {
        case .null: return .null
        case .int64(let value): return .integer(value)
        case .double(let value): return .real(value)
        case .string(let value): return .text(value)
        case .blob(let value): return .blob(value)
        }
    }
}
