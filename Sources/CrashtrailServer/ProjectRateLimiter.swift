import CrashtrailCore
import CrashtrailReports
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

    private let buckets = Mutex<[ProjectID: Bucket]>([:])
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

    /// Takes `count` events from `project`'s bucket, all or none.
    /// - Returns: nil when they were taken; else the seconds until they can be, for `Retry-After`.
    func take(_ project: Project, count: Int = 1) -> Int? {
        let count = Double(max(1, count))
        let limit = limit(of: project)
        guard limit > 0 else { return nil }
        return buckets.withLock { buckets in
            // Read under the lock: a clock read before it could be older than the bucket's last fill.
            let now = time.uptimeNanoseconds()
            var bucket = buckets[project.id] ?? Bucket(level: Double(limit), limit: limit, filledAt: now)
            if bucket.limit != limit {
                // A limit changed with `project limit`: the bucket keeps what it holds, within the new size.
                bucket.limit = limit
                bucket.level = min(bucket.level, Double(limit))
            }
            let perSecond = Double(limit) / 60
            let elapsed = now > bucket.filledAt ? now - bucket.filledAt : 0
            bucket.level = min(Double(limit), bucket.level + Double(elapsed) / 1e9 * perSecond)
            bucket.filledAt = max(now, bucket.filledAt)
            defer { buckets[project.id] = bucket }
            guard bucket.level >= count else {
                let wait = ((min(count, Double(limit)) - bucket.level) / perSecond).rounded(.up)
                return max(1, Int(min(wait, 3600)))
            }
            bucket.level -= count
            return nil
        }
    }
}
