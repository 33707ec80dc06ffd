/// What a transaction on a store's database offers: the statements the store runs, in SQL both backends read.
///
/// Statements take `?` placeholders, bound in order. A transaction is used only on the thread that was handed it, and
/// only inside the closure it was handed to.
package protocol StoreTransaction: AnyObject {
    /// How this backend spells what the two SQL dialects spell differently.
    var dialect: StoreDialect { get }

    /// Runs a statement that returns no rows.
    /// - Returns: how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int

    /// Runs a query and returns every row.
    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow]

    /// Runs a query and calls `body` with each row as it is read, so memory stays bounded however many rows there
    /// are. `body` must not run statements on this transaction.
    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (StoreRow) throws -> Void) throws
}

extension StoreTransaction {
    @discardableResult
    package func execute(_ sql: String) throws -> Int { try execute(sql, []) }

    /// The first column of the first row, if there is a row.
    package func value(_ sql: String, _ arguments: [StoreValue] = []) throws -> StoreValue? {
        try rows(sql, arguments).first?.values.first
    }

    /// The first column of every row, as text (rows with another type are left out).
    package func strings(_ sql: String, _ arguments: [StoreValue] = []) throws -> [String] {
        try rows(sql, arguments).compactMap { $0.values.first?.text }
    }
}

/// What the two SQL dialects spell differently.
///
/// Everything else the store runs is the same text on both.
package struct StoreDialect: Hashable, Sendable {
    /// The SQL function that reads an RFC 3339 text as a comparable instant (NULL when it is not one).
    package var instantFunction: String
    /// A case-insensitive LIKE.
    package var caseInsensitiveLike: String
    /// An empty blob literal.
    package var emptyBlob: String
    /// The column that orders rows of the `manifest` table by when they were added.
    package var manifestOrder: String
    /// The backend's name, for messages.
    package var name: String
    /// How many reports one insert statement holds: many where each statement is a round trip to a server, one where
    /// a statement is a call into the embedded library (there, a prepared one-row statement run again is the
    /// cheapest).
    package var rowsPerInsert = 1
    /// The condition "the report has a time", spelled so that the backend reads it from the index `report_group_recent`
    /// holds it in (`time IS NULL`).
    package var knownTime = "(time IS NULL) = 0"
    /// Whether a kept count has one row per key (SQLite, with its single writer), so a group's counts read as they are;
    /// else a key's rows are changes that readers sum (PostgreSQL, whose writers only insert).
    package var oneRowPerCount = true
    /// Whether each statement, and each page of a cursor, is a round trip to a server (PostgreSQL): a bounded answer
    /// is then read in one statement rather than streamed through a cursor.
    package var statementsAreRoundTrips = false
    /// What ends a `SELECT` that reads rows the transaction then updates, so that a concurrent writer waits for it
    /// (PostgreSQL's `FOR UPDATE`); SQLite has one writer, and needs nothing.
    package var lockingRead = ""

    /// The expression that reads `expression` (a column or a `?`) as an instant.
    package func instant(_ expression: String) -> String { "\(instantFunction)(\(expression))" }

    package static let sqlite = StoreDialect(
        instantFunction: "julianday", caseInsensitiveLike: "LIKE", emptyBlob: "X''", manifestOrder: "rowid", name: "SQLite")

    package static let postgres = StoreDialect(
        instantFunction: "crashtrail_instant", caseInsensitiveLike: "ILIKE", emptyBlob: "'\\x'::bytea", manifestOrder: "seq",
        name: "PostgreSQL", rowsPerInsert: 256, knownTime: "(time IS NULL) IS FALSE", oneRowPerCount: false,
        statementsAreRoundTrips: true, lockingRead: " FOR UPDATE")
}
