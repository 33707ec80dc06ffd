import CrashtrailReports
import Foundation

/// One row a query read: its columns by name (compared without case, since PostgreSQL folds unquoted names to lower
/// case) and their values.
package struct StoreRow: Hashable, Sendable {
    package let names: [String]
    package let values: [StoreValue]

    package init(names: [String], values: [StoreValue]) {
        self.names = names
        self.values = values
    }

    /// The value of the column named `name`, or `.null` when the row has no such column.
    ///
    /// Names compare without ASCII case and without allocating: a listing reads 25 columns of every row.
    package subscript(name: String) -> StoreValue {
        if let index = names.firstIndex(of: name) { return values[index] }
        if let index = names.firstIndex(where: { Self.equalIgnoringASCIICase($0, name) }) { return values[index] }
        return .null
    }

    static func equalIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        // Most names differ in length, which a native string knows without reading it.
        lhs.utf8.count == rhs.utf8.count
            && lhs.utf8.elementsEqual(rhs.utf8) { a, b in
                a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
            }
    }

    /// The value in column `index`.
    package subscript(index: Int) -> StoreValue { values[index] }

    package func string(_ name: String) -> String? { self[name].text }
    package func int64(_ name: String) -> Int64? { self[name].integer }
    package func int(_ name: String) -> Int? { self[name].integer.map(Int.init) }

    /// The project a `project` column names; nil for 0 (no project) or no number.
    package func project(_ name: String = "project") -> ProjectID? { int(name).flatMap(ProjectID.init(rawValue:)) }

    /// The scope a `project` column of a table whose 0 means `zero` names (`.unassigned` for counts and debug files
    /// kept for no project, `.all` for rules kept for every project).
    /// - Throws: `StoreError` (`database`) when the column holds no number or a negative one.
    package func scope(_ name: String = "project", zero: ProjectScope) throws(StoreError) -> ProjectScope {
        guard let number = int(name), number >= 0 else {
            throw StoreError(.database, "a stored row's \(name) column holds \(self[name]), no project's number")
        }
        return ProjectID(rawValue: number).map(ProjectScope.one) ?? zero
    }

    package func data(_ name: String) -> Data? {
        switch self[name] {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }

    /// The integer of a column that must hold one.
    /// - Throws: `StoreError` (`database`) naming the column when it is missing or no integer.
    package func requiredInt(_ name: String) throws(StoreError) -> Int {
        guard let value = int(name) else { throw StoreError(.database, "a stored row has no number in its \(name) column") }
        return value
    }

    /// The text of a column that must hold one.
    /// - Throws: `StoreError` (`database`) naming the column when it is missing or not text.
    package func requiredString(_ name: String) throws(StoreError) -> String {
        guard let value = string(name) else { throw StoreError(.database, "a stored row has no text in its \(name) column") }
        return value
    }
}
