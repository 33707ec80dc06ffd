import CrashtrailCore
import CrashtrailStore
import Foundation
import Synchronization

/// The projects the service accepts and their keys: those given on the command line, or those the store keeps, read
/// again every few seconds so `crashtrail project add` and `project revoke` take effect without a restart.
final class ProjectRegistry: Sendable {
    private struct Known {
        var projects: [Project]
        /// When they were read, on the monotonic clock.
        var readAt: UInt64
    }

    private let store: ReportStore?
    private let known: Mutex<Known>
    private let refreshInterval: TimeInterval
    private let time: TimeSource

    /// Projects fixed for the service's life (`--project ID=KEY`).
    init(fixed projects: [Project]) {
        store = nil
        time = .system
        known = Mutex(Known(projects: projects, readAt: 0))
        refreshInterval = .infinity
    }

    /// The store's projects, with one named `default` made when it has none.
    /// - Throws: `StoreError`.
    init(store: ReportStore, refreshInterval: TimeInterval = 5, time: TimeSource = .system) throws {
        self.store = store
        self.time = time
        known = Mutex(Known(projects: try store.activeProjectsCreatingDefault(), readAt: time.uptimeNanoseconds()))
        self.refreshInterval = refreshInterval
    }

    /// The projects accepted now.
    var active: [Project] {
        refreshIfDue()
        return known.withLock { $0.projects.filter { !$0.revoked } }
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
        let project = known.withLock { $0.projects.first { $0.key == key } }
        guard let project, !project.revoked else {
            throw .unauthorized(
                "the key \(key.prefix(8))… is not a key of any project here\(project?.revoked == true ? " (its project was revoked)" : ""); crashtrail project list shows the DSNs"
            )
        }
        guard String(project.id) == projectID else {
            throw RequestError(
                .forbidden,
                "the key belongs to project \(project.id) (\(project.name)), not to project \(projectID) of the URL; use the DSN of project \(project.id)"
            )
        }
        return project
    }

    /// The project a Sentry API path names, by its name or its number, opened by `key`.
    /// - Throws: `RequestError`: 404 for a project the service does not have, as Sentry answers; 401 and 403 as
    ///   ``authorize(projectID:key:)``.
    func authorize(projectNamed name: String, key: String?) throws(RequestError) -> Project {
        refreshIfDue()
        let project = known.withLock { $0.projects.first { $0.name == name || String($0.id) == name } }
        guard let project, !project.revoked else {
            throw RequestError(.notFound, "no project is named \(name) here; crashtrail project list shows the projects and their names")
        }
        return try authorize(projectID: String(project.id), key: key)
    }

    /// Any project `key` opens, for the requests that name none (Sentry's organization endpoints).
    /// - Throws: `RequestError` (401) without a key or with one no project has.
    func authorize(key: String?) throws(RequestError) -> Project {
        refreshIfDue()
        let project = key.flatMap { key in known.withLock { $0.projects.first { $0.key == key && !$0.revoked } } }
        guard let project else {
            return try authorize(projectID: "", key: key)
        }
        return project
    }

    private func refreshIfDue() {
        guard let store else { return }
        let due = known.withLock { time.seconds(since: $0.readAt) >= refreshInterval }
        guard due, let fresh = try? store.projects() else { return }
        known.withLock { $0 = Known(projects: fresh, readAt: time.uptimeNanoseconds()) }
    }
}
