import CrashtrailReports
import CrashtrailStore
import Foundation
import HTTPTypes
import Hummingbird

/// Who may read the service's crashes, and which project's: its pages, its JSON and `/metrics` (SPEC section 19).
///
/// Reads are closed by default, on loopback too. They open to a token with the `read` scope (`crashtrail project token
/// add`), which shows its project's crashes only (or every project's, for a token made with `--all-projects`); to the
/// operator's token given with `--read-token`; or to anyone with `--public-read`. The token comes as
/// `Authorization: Bearer TOKEN`, or as the password of HTTP Basic authentication (any user name), which a browser asks
/// for once.
///
/// A request names one project's crashes with `?project=ID` (or its name); a project's token reads its own without it.
struct ReadAccess: Sendable {
    /// Anyone may read (`--public-read`).
    var isPublic: Bool
    /// The operator's token (`--read-token`), which opens every read.
    var operatorToken: String?
    let projects: ProjectRegistry

    /// Lets the request through, or refuses it.
    /// - Returns: the projects whose crashes it reads: one, or `.all`.
    /// - Throws: `RequestError`: 401 (with a Basic challenge, so a browser asks) without a token or with an unknown one,
    ///   403 for a token that may not read this, 404 for a `project` the service does not have.
    func authorize(_ request: Request) throws(RequestError) -> ProjectScope {
        let own = try tokenProject(request, anyProject: true)
        // The project named is looked up only once the token is known good, so the answer tells no stranger which exist.
        // The operator reads a revoked project's crashes too.
        let named = try request.uri.queryParameters.get("project").map { name throws(RequestError) in
            try projects.project(named: name, includingRevoked: own == nil).id
        }
        guard let own else { return named.map(ProjectScope.one) ?? .all }
        if let named, named != own {
            throw RequestError(
                .forbidden,
                "the token sent reads project \(own) only, and this request names project \(named); use a token of that project, or an operator's (--all-projects)"
            )
        }
        return .one(own)
    }

    /// Lets through a request for what the whole service shows (`/metrics`), or refuses it: a project's token opens it
    /// only on a service with that one project.
    /// - Throws: `RequestError`, as ``authorize(_:)``.
    func authorizeService(_ request: Request) throws(RequestError) {
        _ = try tokenProject(request, anyProject: false)
    }

    /// The project the request's token reads only, or nil when it reads every project (a public service, the
    /// operator's token, a token of every project).
    private func tokenProject(_ request: Request, anyProject: Bool) throws(RequestError) -> ProjectID? {
        guard !isPublic else { return nil }
        let token = Self.token(request)
        if let operatorToken, let token, AccessToken.constantTimeEqual(token, operatorToken) { return nil }
        let opened: AccessToken
        do {
            opened = try projects.authorizeToken(token, scope: .read, project: nil, anyProject: anyProject)
        } catch  where error.status == .unauthorized {
            var challenged = error
            challenged.headers[.wwwAuthenticate] = "Basic realm=\"crashtrail\", charset=\"UTF-8\""
            throw challenged
        }
        if let own = opened.project.project, projects.project(id: own) == nil {
            throw RequestError(
                .forbidden,
                "token \(opened.id) (\(opened.hint)…) reads project \(own), which was revoked; its crashes are the operator's to read (--all-projects)"
            )
        }
        return opened.project.project
    }

    /// The token of `Authorization: Bearer TOKEN`, or the password of `Authorization: Basic …`.
    static func token(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        if let token = ProjectKey.fromBearer(header) { return token }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let password = String(text[text.index(after: colon)...])
        return password.isEmpty ? nil : password
    }
}
