import CrashtrailCore
import CrashtrailReports
import CrashtrailStore

/// Every operation a `crashtrail` command performs on a crash store, so the command line and a service share them:
/// ingest, manifests, reprocess, list and show, paths and the triage site (each in an extension named after it),
/// and replay (``ReplayOperation``).
///
/// A command opens the store once and makes one call.
///
/// ```swift
/// let service = try TriageService(location: StoreLocation(nil), creating: false)
/// let groups = try service.groups(ReportFilter(appVersion: "3.1.0"), limit: 20)
/// ```
public final class TriageService: Sendable {
    /// The store the operations read and write.
    public let store: ReportStore
    /// Where the store is.
    public let location: StoreLocation
    /// The clock every operation reads the time from.
    public let time: TimeSource
    /// The project whose crashes the reads show (groups, reports, `show`, replay, paths, the site's pages); every
    /// project's for `.all` (SPEC section 19).
    public let project: ProjectScope

    /// A service over a store already opened.
    /// - Parameters:
    ///   - store: the store.
    ///   - location: where the store is.
    ///   - time: the clock every operation reads the time from.
    ///   - project: the project whose crashes the reads show; every project's for `.all`.
    public init(store: ReportStore, location: StoreLocation, time: TimeSource = .system, project: ProjectScope = .all) {
        self.store = store
        self.location = location
        self.time = time
        self.project = project
    }

    /// The same service, reading the crashes of `project` only (every project's for `.all`).
    public func reading(project: ProjectScope) -> TriageService {
        project == self.project ? self : TriageService(store: store, location: location, time: time, project: project)
    }

    /// The same service, reading the crashes of the project `idOrName` names (`--project`), or every project's when nil.
    /// - Throws: `StoreError` (`not-found`) naming the projects there are.
    public func reading(projectNamed idOrName: String?) throws(StoreError) -> TriageService {
        guard let idOrName else { return self }
        return reading(project: .one(try store.project(idOrName: idOrName).id))
    }

    /// Opens the store at `location` once.
    /// - Parameters:
    ///   - location: where the store is.
    ///   - creating: whether a missing SQLite file is made (commands that write), or refused (commands that read,
    ///     with ``StoreLocationError``).
    ///   - time: the clock every operation reads the time from.
    /// - Throws: ``StoreLocationError``, or `StoreError` naming the store.
    public convenience init(location: StoreLocation, creating: Bool, time: TimeSource = .system) throws {
        let store = creating ? try location.openOrCreate() : try location.openExisting()
        self.init(store: store, location: location, time: time)
    }
}
