import CrashtrailStore
import Foundation

/// The projects the service accepts and their keys: those given on the command line, or those the store keeps, read
/// again every few seconds so `crashtrail project add` and `project revoke` take effect without a restart.
final class ProjectRegistry: @unchecked Sendable {
    private let store: ReportStore?
    private let lock = NSLock()
    private var projects: [Project]
    private var readAt: Date
    private let refreshInterval: TimeInterval

    /// Projects fixed for the service's life (`--project ID=KEY`).
    init(fixed projects: [Project]) {
        store = nil
        self.projects = projects
        readAt = Date()
        refreshInterval = .infinity
    }

    /// The store's projects, with one named `default` made when it has none.
    /// - Throws: `StoreError`.
    init(store: ReportStore, refreshInterval: TimeInterval = 5) throws {
        self.store = store
        projects = try store.activeProjectsCreatingDefault()
        readAt = Date()
        self.refreshInterval = refreshInterval
    }

    /// The projects accepted now.
    var active: [Project] {
        refreshIfDue()
        return lock.withLock { projects.filter { !$0.revoked } }
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
        let project = lock.withLock { projects.first { $0.key == key } }
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

    private func refreshIfDue() {
        guard let store else { return }
        let due = lock.withLock { Date().timeIntervalSince(readAt) >= refreshInterval }
        guard due, let fresh = try? store.projects() else { return }
        lock.withLock {
            projects = fresh
            readAt = Date()
        }
    }
}
