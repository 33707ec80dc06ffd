import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Foundation
import Synchronization

/// The projects the service accepts, their keys and limits, and the tokens it honours (SPEC sections 14 and 19): the
/// projects given on the command line or those the store keeps, and the store's tokens, read again every few seconds so
/// `crashtrail project add`, `project revoke`, `project limit` and `project token …` take effect without a restart.
///
/// Keys and tokens are compared in constant time: a key is compared with every project's, and a token is known by its
/// SHA-256, never by its value.
final class ProjectRegistry: Sendable {
    private struct Known {
        var projects: [Project]
        /// The tokens by the SHA-256 of their values, the revoked ones too (to say so).
        var tokens: [String: AccessToken]
        /// When they were read, on the monotonic clock.
        var readAt: UInt64
    }

    private let store: ReportStore?
    /// Projects fixed for the service's life (`--project ID=KEY`), or nil when the store's are used.
    private let fixed: [Project]?
    private let known: Mutex<Known>
    private let refreshInterval: TimeInterval
    private let time: TimeSource

    /// Projects fixed for the service's life (`--project ID=KEY`), with the tokens `store` keeps, if one is given.
    /// - Throws: `StoreError` when the store's tokens cannot be read.
    init(fixed projects: [Project], store: ReportStore? = nil, refreshInterval: TimeInterval = 5, time: TimeSource = .system)
        throws(StoreError)
    {
        self.store = store
        fixed = projects
        self.time = time
        self.refreshInterval = store == nil ? .infinity : refreshInterval
        known = Mutex(Known(projects: projects, tokens: try Self.tokens(in: store), readAt: time.uptimeNanoseconds()))
    }

    /// The store's projects, with one named `default` made when it has none, and the store's tokens.
    /// - Throws: `StoreError`.
    init(store: ReportStore, refreshInterval: TimeInterval = 5, time: TimeSource = .system) throws(StoreError) {
        self.store = store
        fixed = nil
        self.time = time
        known = Mutex(
            Known(
                projects: try store.activeProjectsCreatingDefault(), tokens: try Self.tokens(in: store),
                readAt: time.uptimeNanoseconds()))
        self.refreshInterval = refreshInterval
    }

    private static func tokens(in store: ReportStore?) throws(StoreError) -> [String: AccessToken] {
        guard let store else { return [:] }
        return Dictionary(try store.tokens().map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The projects accepted now.
    var active: [Project] {
        refreshIfDue()
        return known.withLock { $0.projects.filter { !$0.revoked } }
    }

    /// The project with ID `id`, if it is accepted now.
    func project(id: ProjectID) -> Project? {
        active.first { $0.id == id }
    }

    /// The project whose key is `key`, compared with every project's key in constant time.
    private func project(withKey key: String) -> Project? {
        known.withLock { known in
            var found: Project?
            for project in known.projects where AccessToken.constantTimeEqual(project.key, key) { found = project }
            return found
        }
    }

    /// The project that `key` opens, checked against the project `projectID` of the request's path.
    /// - Throws: `RequestError`: 401 without a key or with a key no project has (or a revoked one's), 403 for the key of
    ///   another project.
    func authorize(projectID: String, key: String?) throws(RequestError) -> Project {
        guard let key, !key.isEmpty else {
            throw .unauthorized(
                "no project key: send it as X-Sentry-Auth: Sentry sentry_key=KEY (a Sentry SDK does this with its DSN), "
                    + "the sentry_key query parameter, or Authorization: Bearer KEY")
        }
        refreshIfDue()
        let project = project(withKey: key)
        guard let project, !project.revoked else {
            throw .unauthorized(
                "the key sent is not a key of any project here\(project?.revoked == true ? " (its project was revoked)" : ""); crashtrail project list shows the DSNs"
            )
        }
        guard project.id.description == projectID else {
            throw RequestError(
                .forbidden,
                "the key belongs to project \(project.id) (\(project.name)), not to project \(projectID) of the URL; use the DSN of project \(project.id)"
            )
        }
        return project
    }

    /// The project a Sentry API path names, by its name or its number; a revoked one only `includingRevoked` (the
    /// operator's reads of what it kept).
    /// - Throws: `RequestError` (404) for a project the service does not have, as Sentry answers.
    func project(named name: String, includingRevoked: Bool = false) throws(RequestError) -> Project {
        refreshIfDue()
        let project = known.withLock { Project.named(name, in: $0.projects) }
        guard let project, includingRevoked || !project.revoked else {
            throw RequestError(.notFound, "no project is named \(name) here; crashtrail project list shows the projects and their names")
        }
        return project
    }

    /// The token `value` opens, when it may do `scope` in `project`.
    ///
    /// - Parameters:
    ///   - value: the token sent.
    ///   - scope: what the request does.
    ///   - project: the project it reaches; nil for anything the read side shows, which needs a token of every project,
    ///     or of the service's only project.
    ///   - anyProject: whether a token of any one project will do (Sentry's organization endpoints, which name none).
    /// - Returns: the token.
    /// - Throws: `RequestError`: 401 without a token, with one the store does not know or a revoked one; 403 for a
    ///   DSN key, or a token without the scope or of another project.
    func authorizeToken(
        _ value: String?, scope: AccessToken.Scope, project: Project?, anyProject: Bool = false
    ) throws(RequestError) -> AccessToken {
        let make = "crashtrail project token add \(project.map { $0.name } ?? "PROJECT") --scope \(scope.rawValue)"
        guard let value, !value.isEmpty else {
            throw .unauthorized(
                "this needs a token with the \(scope.rawValue) scope, as Authorization: Bearer TOKEN; make one with \(make)")
        }
        refreshIfDue()
        let hash = AccessToken.hash(of: value)
        let token = known.withLock { known in
            known.tokens.values.first { AccessToken.constantTimeEqual($0.hash, hash) }
        }
        guard let token else {
            if self.project(withKey: value) != nil {
                throw RequestError(
                    .forbidden,
                    "a DSN key only sends reports: every copy of the app carries it, so it reads and uploads nothing. Use a token: \(make)"
                )
            }
            throw .unauthorized(
                "the token sent is not one this service knows; crashtrail project token list shows the tokens, and \(make) makes one")
        }
        guard !token.revoked else {
            throw .unauthorized("the token sent (\(token.hint)…, token \(token.id)) was revoked; make another with \(make)")
        }
        guard token.scopes.contains(scope) else {
            throw RequestError(
                .forbidden,
                "token \(token.id) (\(token.hint)…) has the scopes \(token.scopes.sorted().map(\.rawValue).joined(separator: ",")), not \(scope.rawValue); make one with \(make)"
            )
        }
        if case .one(let opens) = token.project, !anyProject {
            let wanted = project?.id ?? soleProject()
            guard wanted == opens else {
                let what = project.map { "project \($0.id) (\($0.name))" } ?? "every project's crashes"
                throw RequestError(
                    .forbidden,
                    "token \(token.id) (\(token.hint)…) opens project \(opens) only, and this request reaches \(what); use a token of that project, or an operator's (--all-projects)"
                )
            }
        }
        return token
    }

    /// The ID of the service's only project, when it has one.
    private func soleProject() -> ProjectID? {
        let projects = active
        return projects.count == 1 ? projects[0].id : nil
    }

    private func refreshIfDue() {
        guard let store else { return }
        let due = known.withLock { time.seconds(since: $0.readAt) >= refreshInterval }
        guard due else { return }
        let projects = fixed.map { Result<[Project], StoreError>.success($0) } ?? Result { () throws(StoreError) in try store.projects() }
        guard case .success(let fresh) = projects, let tokens = try? Self.tokens(in: store) else {
            // The store could not be read: what is known stays, and the next attempt waits its interval too.
            known.withLock { $0.readAt = time.uptimeNanoseconds() }
            return
        }
        known.withLock { $0 = Known(projects: fresh, tokens: tokens, readAt: time.uptimeNanoseconds()) }
    }
}
