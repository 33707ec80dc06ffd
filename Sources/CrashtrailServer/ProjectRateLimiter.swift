import CrashtrailCore
import CrashtrailStore
import Synchronization

/// Each project's rate limit (SPEC section 19): a bucket of `eventsPerMinute` events, refilled continuously, so a
/// project may send a minute's worth at once and then its rate.
///
/// The limit is the project's own (`crashtrail project limit`, read again with the projects) or the service's default
/// (`serve --events-per-minute`); 0 or less is no limit.
final class ProjectRateLimiter: Sendable {
    private struct Bucket {
        var level: Double
        var limit: Int
        /// When it was last filled, on the monotonic clock.
        var filledAt: UInt64
    }

    private let buckets = Mutex<[Int: Bucket]>([:])
    private let defaultEventsPerMinute: Int
    /// Whether a project's own limit (`crashtrail project limit`) replaces the default: for events, not for trails.
    private let usesProjectLimit: Bool
    private let time: TimeSource

    init(defaultEventsPerMinute: Int, usesProjectLimit: Bool = true, time: TimeSource) {
        self.defaultEventsPerMinute = defaultEventsPerMinute
        self.usesProjectLimit = usesProjectLimit
        self.time = time
    }

    /// The limit that applies to `project`.
    func limit(of project: Project) -> Int {
        (usesProjectLimit ? project.eventsPerMinute : nil) ?? defaultEventsPerMinute
    }

    /// Takes one event from `project`'s bucket.
    /// - Returns: nil when it was taken; else the seconds until one can be, for `Retry-After`.
    func take(_ project: Project) -> Int? {
        let limit = limit(of: project)
        guard limit > 0 else { return nil }
        let now = time.uptimeNanoseconds()
        return buckets.withLock { buckets in
            var bucket = buckets[project.id] ?? Bucket(level: Double(limit), limit: limit, filledAt: now)
            if bucket.limit != limit {
                // A limit changed with `project limit`: the bucket keeps what it holds, within the new size.
                bucket.limit = limit
                bucket.level = min(bucket.level, Double(limit))
            }
            let perSecond = Double(limit) / 60
            bucket.level = min(Double(limit), bucket.level + Double(now &- bucket.filledAt) / 1e9 * perSecond)
            bucket.filledAt = now
            defer { buckets[project.id] = bucket }
            guard bucket.level >= 1 else {
                return max(1, Int(((1 - bucket.level) / perSecond).rounded(.up)))
            }
            bucket.level -= 1
            return nil
        }
    }
}
