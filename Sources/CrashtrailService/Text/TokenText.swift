import CrashtrailCore
import CrashtrailReports
import CrashtrailStore

/// What `crashtrail project token` prints about tokens.
package enum TokenText {
    /// The line that announces a token just made; its value follows on a line of its own.
    package static func made(_ token: AccessToken) -> String {
        "Made token \(token.id) for \(token.project), scopes \(scopes(token))."
    }

    /// The line `project token list` prints for `token`.
    ///
    /// Its ID, project (with its name, from `projects`), scopes, first characters, when made, and whether it was revoked.
    /// Never its value: the store keeps only its hash.
    package static func line(_ token: AccessToken, projects: [Project]) -> String {
        let project: String =
            switch token.project {
            case .one(let id): projects.first { $0.id == id }.map { "\(id) (\($0.name))" } ?? id.description
            case .all, .unassigned: "all projects"
            }
        let state = token.revoked ? "  revoked" : ""
        return "\(token.id)  \(project)  \(scopes(token))  \(token.hint)…  \(Timestamp.rfc3339(milliseconds: token.created))\(state)"
    }

    /// The token's scopes, as `--scope` takes them.
    private static func scopes(_ token: AccessToken) -> String {
        token.scopes.sorted().map(\.rawValue).joined(separator: ",")
    }
}
