import CrashtrailReports
import Synchronization

/// Each project's share of the work waiting to be committed (SPEC section 19): with `n` projects accepted, one may hold
/// at most `capacity / n` of the backlog, so a project that floods the service fills its own share and never the room
/// another project's reports need.
final class ProjectShares: Sendable {
    private let waiting = Mutex<[ProjectID: Int]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The most work one of `projects` projects may hold.
    func share(among projects: Int) -> Int {
        max(1, capacity / max(1, projects))
    }

    /// Reserves `weight` for `project`.
    /// - Returns: whether it fits in the project's share; when it does not, nothing was reserved.
    func reserve(_ weight: Int, for project: ProjectID, among projects: Int) -> Bool {
        let share = share(among: projects)
        return waiting.withLock { waiting in
            let held = waiting[project, default: 0]
            // One submission always fits when the project holds nothing, as the committer lets one in when empty.
            guard held == 0 || held + weight <= share else { return false }
            waiting[project] = held + weight
            return true
        }
    }

    /// Gives back what ``reserve(_:for:among:)`` took, once the work is committed or failed.
    func release(_ weight: Int, for project: ProjectID) {
        waiting.withLock { waiting in
            let left = waiting[project, default: 0] - weight
            waiting[project] = left > 0 ? left : nil
        }
    }

    /// The work each project holds now.
    var held: [ProjectID: Int] { waiting.withLock { $0 } }
}
