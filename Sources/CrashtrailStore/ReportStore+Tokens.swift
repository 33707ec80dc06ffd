import CrashtrailReports
import Foundation

/// The tokens a store keeps for `crashtrail serve` (`token` table, migration `v19: tokens and limits`; PostgreSQL
/// `v16`; SPEC section 19): hashes of their values, never the values.
extension ReportStore {
    /// Makes a token and keeps its hash.
    /// - Parameters:
    ///   - idOrName: the project it opens, by ID or name; nil for an operator's token that opens every project.
    ///   - scopes: what it may do.
    ///   - created: when, in milliseconds since 1970.
    /// - Returns: the token as stored, and its value, which the store never holds.
    /// - Throws: `StoreError`: `notFound` for a project the store does not have, or `database`.
    public func addToken(
        project idOrName: String?, scopes: Set<AccessToken.Scope>, created: Int64
    ) throws(StoreError) -> (token: AccessToken, value: String) {
        let project = try idOrName.map { name throws(StoreError) in try self.project(idOrName: name) }
        guard !scopes.isEmpty else {
            throw StoreError(.database, "a token needs a scope: --scope read, --scope debug-files, or both")
        }
        let value = AccessToken.newValue()
        let hash = AccessToken.hash(of: value)
        let scopeText = scopes.sorted().map(\.rawValue).joined(separator: ",")
        let hint = String(value.prefix(8))
        let id = try write { db in
            let next = (try db.value("SELECT COALESCE(MAX(id), 0) + 1 FROM token")?.integer).map(Int.init) ?? 1
            try db.execute(
                "INSERT INTO token (id, project, scopes, hash, hint, created, revoked) VALUES (?, ?, ?, ?, ?, ?, 0)",
                [
                    .integer(Int64(next)), project.map { StoreValue($0.id) } ?? .null, .text(scopeText), .text(hash),
                    .text(hint), .integer(created),
                ])
            return next
        }
        return (
            AccessToken(
                id: id, project: project.map { .one($0.id) } ?? .all, scopes: scopes, hint: hint, created: created, hash: hash),
            value
        )
    }

    /// Every token, by ID, the revoked ones too.
    /// - Throws: `StoreError` (`database`).
    public func tokens() throws(StoreError) -> [AccessToken] {
        try read { db in
            try db.rows("SELECT id, project, scopes, hash, hint, created, revoked FROM token ORDER BY id", []).map { row throws in
                // An operator's token is kept with no project: it opens every project.
                let project: ProjectScope = row["project"] == .null ? .all : try row.scope(zero: .all)
                return AccessToken(
                    id: try row.requiredInt("id"), project: project,
                    // A scope a later version added and this one does not know is left out: it grants nothing here.
                    scopes: Set((row.string("scopes") ?? "").split(separator: ",").compactMap { AccessToken.Scope(rawValue: String($0)) }),
                    hint: row.string("hint") ?? "", created: row.int64("created") ?? 0, revoked: (row.int("revoked") ?? 0) != 0,
                    hash: row.string("hash") ?? "")
            }
        }
    }

    /// Revokes a token by its ID: it opens nothing from now on (a running service stops taking it within seconds).
    /// - Returns: the token, revoked.
    /// - Throws: `StoreError`: `notFound` naming the tokens there are, or `database`.
    public func revokeToken(id: Int) throws(StoreError) -> AccessToken {
        guard var token = try tokens().first(where: { $0.id == id }) else {
            let known = try tokens().filter { !$0.revoked }.map { String($0.id) }.joined(separator: ", ")
            throw StoreError(
                .notFound,
                "no token has the ID \(id); \(known.isEmpty ? "the store has no active tokens" : "the active tokens are \(known)") (crashtrail project token list)"
            )
        }
        try write { db in try db.execute("UPDATE token SET revoked = 1 WHERE id = ?", [.integer(Int64(id))]) }
        token.revoked = true
        return token
    }
}
