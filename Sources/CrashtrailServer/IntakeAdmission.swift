import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Foundation
import HTTPTypes

/// Whether intake takes a request in, and the one place its refusals are made (SPEC section 19): the disk's floor, each
/// project's rates, its share of the backlog, and the backlog itself.
///
/// Every refusal that a client should retry carries `Retry-After`; those a Sentry SDK sends carry
/// `X-Sentry-Rate-Limits` too, whose categories tell the SDK what to hold back. Each is counted in `/metrics`.
///
/// An endpoint asks in this order: ``checkRoom()`` before it reads a byte, ``admit(_:_:count:)`` as soon as it knows
/// what the request carries (before the body for `store`, `reports` and `trails`; after an envelope's framing, whose
/// items say whether it holds an event or only sessions), then ``reserve(_:for:among:)`` around the commit.
struct IntakeAdmission: Sendable {
    /// What a rate limit counts: each has its own bucket per project, as Relay's categories do.
    enum Category: Sendable, CaseIterable {
        /// Crash reports: Sentry's events, payloads of any format. Only this rate takes a project's own limit
        /// (`crashtrail project limit`).
        case events
        /// Trail files posted to be joined.
        case trails
        /// Envelopes that carry sessions and no event.
        case sessions

        /// How a refusal names what was sent.
        var noun: String {
            switch self {
            case .events: "events"
            case .trails: "trail files"
            case .sessions: "envelopes of sessions"
            }
        }

        /// The categories `X-Sentry-Rate-Limits` names, which Sentry's SDKs hold back; nil where no SDK sends.
        var sentryCategories: String? {
            switch self {
            case .events: "error;default"
            case .trails: nil
            case .sessions: "session"
            }
        }
    }

    /// Each category's rate limits.
    private let events: ProjectRateLimiter
    private let trails: ProjectRateLimiter
    private let sessions: ProjectRateLimiter
    /// Each project's share of the backlog.
    let shares: ProjectShares
    /// The free disk below which intake refuses before writing.
    let diskFloor: DiskFloor
    let metrics: ServerMetrics

    /// - Parameters:
    ///   - trust: the service's default rates and disk floor.
    ///   - backlog: how many reports may wait to be committed (`serve --backlog`).
    ///   - folders: the folders the service writes, whose free space the floor holds.
    ///   - metrics: where refusals are counted.
    ///   - time: the clock the buckets refill and the disk is measured by.
    init(trust: ServeOptions.Trust, backlog: Int, folders: [String], metrics: ServerMetrics, time: TimeSource) {
        events = ProjectRateLimiter(defaultEventsPerMinute: trust.eventsPerMinute, time: time)
        trails = ProjectRateLimiter(defaultEventsPerMinute: trust.trailsPerMinute, usesProjectLimit: false, time: time)
        sessions = ProjectRateLimiter(defaultEventsPerMinute: trust.sessionsPerMinute, usesProjectLimit: false, time: time)
        shares = ProjectShares(capacity: backlog)
        diskFloor = DiskFloor(folders: folders, floor: trust.minimumFreeDisk, time: time)
        self.metrics = metrics
    }

    /// Refuses intake while the disk has less free space than the floor, before anything is read or written.
    /// - Throws: `RequestError` (503 with `Retry-After`).
    func checkRoom() throws(RequestError) {
        guard diskFloor.hasRoom else {
            metrics.refused(.diskFloor, project: nil)
            throw Self.refusal(
                .diskFloor, .serviceUnavailable, retryAfter: 60,
                "the service's disk has less free space than its floor (--min-free-disk); nothing was read or kept, send again later")
        }
    }

    /// Takes `count` of `category` from the project's rate limit, all or none.
    /// - Parameters:
    ///   - category: what the request carries.
    ///   - project: the project it came for.
    ///   - count: how many (the reports of a payload of several).
    /// - Throws: `RequestError` (429 with `Retry-After`, and `X-Sentry-Rate-Limits` where an SDK sends) past it.
    func admit(_ category: Category, _ project: Project, count: Int = 1) throws(RequestError) {
        let rate = rate(of: category)
        guard let wait = rate.take(project, count: count) else { return }
        metrics.refused(.rateLimit, project: project.id)
        throw Self.refusal(
            .rateLimit, .tooManyRequests, retryAfter: wait, sentryLimits: category.sentryCategories.map { "\($0):project" },
            "project \(project.id) sent more than its \(rate.limit(of: project)) \(category.noun) a minute (crashtrail project limit); send again in \(wait) s"
        )
    }

    /// Takes one of `category` from the project's rate limit without a refusal: for what rides on a request already
    /// refused (an envelope's sessions, beside its event), which is dropped past the rate rather than answered.
    /// - Returns: whether it was taken.
    func take(_ category: Category, _ project: Project) -> Bool {
        rate(of: category).take(project) == nil
    }

    /// The limiter of `category`: every category has one, so none is admitted by a missing entry.
    private func rate(of category: Category) -> ProjectRateLimiter {
        switch category {
        case .events: events
        case .trails: trails
        case .sessions: sessions
        }
    }

    /// Reserves `weight` of the backlog for `project`, to be given back with ``release(_:for:)``.
    /// - Parameters:
    ///   - weight: the reports the work holds.
    ///   - project: the project it came for.
    ///   - projectCount: how many projects share the backlog.
    /// - Throws: `RequestError` (429 for a second) when the project's share is full; nothing is reserved then.
    func reserve(_ weight: Int, for project: ProjectID, among projectCount: Int) throws(RequestError) {
        guard !shares.reserve(weight, for: project, among: projectCount) else { return }
        metrics.refused(.backlogShare, project: project)
        throw Self.refusal(
            .backlogShare, .tooManyRequests, retryAfter: 1, sentryLimits: ":project",
            "project \(project) already has \(shares.held[project] ?? 0) reports waiting to be stored, its share of the service's backlog (\(shares.share(among: projectCount)) of \(shares.capacity)); send again after a second"
        )
    }

    /// Gives back what ``reserve(_:for:among:)`` took, once the work is committed or failed.
    func release(_ weight: Int, for project: ProjectID) {
        shares.release(weight, for: project)
    }

    /// The most reports one payload may hold: its project's share of the backlog.
    func share(among projectCount: Int) -> Int {
        shares.share(among: projectCount)
    }

    /// The 429 of a full backlog: the service's, whichever project sent.
    /// - Parameter waiting: the reports that wait to be committed.
    /// - Returns: the refusal, for a second.
    func backlogFull(waiting: Int) -> RequestError {
        Self.refusal(
            .backlogFull, .tooManyRequests, retryAfter: 1, sentryLimits: ":organization",
            "the service's backlog is full (\(waiting) reports wait to be stored); send again after a second")
    }

    /// A refusal to be retried after `retryAfter` seconds: the one place `Retry-After` and `X-Sentry-Rate-Limits` are
    /// written.
    /// - Parameters:
    ///   - code: the refusal's kind.
    ///   - status: 429 or 503.
    ///   - retryAfter: the seconds to wait.
    ///   - sentryLimits: `X-Sentry-Rate-Limits`'s categories and scope (`error;default:project`, `:organization`),
    ///     after the seconds; nil for none.
    ///   - detail: what was refused and when to send again.
    /// - Returns: the error, answered with those headers.
    static func refusal(
        _ code: RequestError.Code, _ status: HTTPResponse.Status, retryAfter: Int, sentryLimits: String? = nil, _ detail: String
    ) -> RequestError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(retryAfter)
        if let sentryLimits { headers[.sentryRateLimits] = "\(retryAfter):\(sentryLimits)" }
        return RequestError(status, detail, headers: headers, code: code)
    }
}
