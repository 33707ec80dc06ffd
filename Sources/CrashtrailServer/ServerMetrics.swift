import CoreMetrics
import CrashtrailReports
import CrashtrailStore
import Dispatch
import NIOConcurrencyHelpers
import Prometheus

/// What `GET /metrics` reports, in Prometheus's text format: requests by endpoint and status, their latency,
/// reports stored and the backlog waiting for a commit.
///
/// The metrics go through swift-metrics to a registry of this service's own (not the process-wide bootstrap), so
/// several services in one process (tests) keep apart.
struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let stored: CoreMetrics.Counter
    private let duplicates: CoreMetrics.Counter
    private let backlog: CoreMetrics.Gauge
    private let trailsWaiting: CoreMetrics.Gauge
    private let trailsWaitingBytes: CoreMetrics.Gauge
    private let awaitingSymbols: CoreMetrics.Gauge
    private let trailsKept: CoreMetrics.Counter
    private let trailsNotKept: CoreMetrics.Counter
    private let trailsJoinedWaiting: CoreMetrics.Counter
    private let sessionItems: CoreMetrics.Counter
    private let sessionItemsRefused: CoreMetrics.Counter
    private let sessionTrails: CoreMetrics.Counter
    /// Each endpoint and status's counter and timer, made once: making them looks them up in the registry.
    private let handles = NIOLockedValueBox<[String: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])
    /// Each refusal's counter, by reason and project, made once.
    private let refusals = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])

    /// Why the service refused work for a limit of SPEC section 19: the `reason` label of
    /// `crashtrail_limit_refusals_total`.
    enum Refusal: String, CaseIterable {
        /// A project passed its rate limit (429).
        case rateLimit = "rate-limit"
        /// A project held its share of the backlog (429).
        case backlogShare = "backlog-share"
        /// The disk had less free space than the floor (503).
        case diskFloor = "disk-floor"
        /// The quarantine held its limit: a refused payload was not copied.
        case quarantineFull = "quarantine-full"
        /// An upload chunk would pass its project's quota (413).
        case uploadQuota = "upload-quota"
        /// An assemble was refused before anything was stored (too large, or bad chunks).
        case assemble = "assemble"
    }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        self.factory = factory
        stored = CoreMetrics.Counter(label: "crashtrail_reports_stored_total", dimensions: [], factory: factory)
        duplicates = CoreMetrics.Counter(label: "crashtrail_reports_duplicate_total", dimensions: [], factory: factory)
        backlog = CoreMetrics.Gauge(label: "crashtrail_backlog", dimensions: [], factory: factory)
        trailsWaiting = CoreMetrics.Gauge(label: "crashtrail_trails_waiting", dimensions: [], factory: factory)
        trailsWaitingBytes = CoreMetrics.Gauge(label: "crashtrail_trails_waiting_bytes", dimensions: [], factory: factory)
        awaitingSymbols = CoreMetrics.Gauge(label: "crashtrail_reports_awaiting_symbols", dimensions: [], factory: factory)
        trailsKept = CoreMetrics.Counter(label: "crashtrail_trails_kept_waiting_total", dimensions: [], factory: factory)
        trailsNotKept = CoreMetrics.Counter(label: "crashtrail_trails_refused_waiting_full_total", dimensions: [], factory: factory)
        trailsJoinedWaiting = CoreMetrics.Counter(label: "crashtrail_trails_joined_after_waiting_total", dimensions: [], factory: factory)
        sessionItems = CoreMetrics.Counter(label: "crashtrail_session_items_counted_total", dimensions: [], factory: factory)
        sessionItemsRefused = CoreMetrics.Counter(label: "crashtrail_session_items_refused_total", dimensions: [], factory: factory)
        sessionTrails = CoreMetrics.Counter(label: "crashtrail_session_trails_counted_total", dimensions: [], factory: factory)
    }

    /// Counts the `session` and `sessions` items of an envelope: counted, and refused as unreadable (SPEC section 20).
    func sessionItems(counted: Int, refused: Int) {
        if counted > 0 { sessionItems.increment(by: counted) }
        if refused > 0 { sessionItemsRefused.increment(by: refused) }
    }

    /// Counts the trail of a session that did not crash, added to the path counts.
    func sessionTrailCounted() {
        sessionTrails.increment()
    }

    /// Counts a trail that joined no stored crash: kept to wait for it, or refused because as many trails as
    /// allowed already wait.
    func trailWaits(kept: Bool) {
        if kept { trailsKept.increment() } else { trailsNotKept.increment() }
    }

    /// Counts crashes that joined the trail waiting for them.
    func joinedWaiting(_ count: Int) {
        if count > 0 { trailsJoinedWaiting.increment(by: count) }
    }

    /// Counts a refusal for a limit, by its reason and the project (a project the service accepts: its number), or
    /// none.
    func refused(_ reason: Refusal, project: ProjectID?) {
        let project = project?.description ?? "none"
        let counter = refusals.withLockedValue { refusals in
            let key = "\(reason.rawValue) \(project)"
            if let made = refusals[key] { return made }
            let made = CoreMetrics.Counter(
                label: "crashtrail_limit_refusals_total", dimensions: [("reason", reason.rawValue), ("project", project)], factory: factory)
            refusals[key] = made
            return made
        }
        counter.increment()
    }

    /// Counts a request answered, and how long it took.
    func answered(endpoint: String, status: Int, nanoseconds: UInt64) {
        let (counter, timer) = handles.withLockedValue { handles in
            let key = "\(endpoint) \(status)"
            if let made = handles[key] { return made }
            let made = (
                CoreMetrics.Counter(
                    label: "crashtrail_http_requests_total", dimensions: [("endpoint", endpoint), ("status", String(status))],
                    factory: factory),
                CoreMetrics.Timer(label: "crashtrail_http_request_duration_seconds", dimensions: [("endpoint", endpoint)], factory: factory)
            )
            handles[key] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Counts reports committed.
    func committed(stored count: Int, duplicates duplicateCount: Int) {
        if count > 0 { stored.increment(by: count) }
        if duplicateCount > 0 { duplicates.increment(by: duplicateCount) }
    }

    /// The Prometheus text, with the figures read as the scrape comes.
    ///
    /// They are the backlog, the trails waiting for their crashes, the reports waiting for a debug file the store has
    /// and the forwarding outbox. A figure passed as `nil` (the store could not read it) is left as it was.
    ///
    /// The outbox's states are written per upstream as they are now rather than kept in the registry, whose gauges
    /// would go on reporting an upstream or a reason the outbox no longer has.
    func text(
        backlog waiting: Int, waitingTrails: (count: Int, bytes: Int64)?, awaitingSymbols awaiting: Int?,
        forwarding: [ForwardStatus]?, now: Int64
    ) -> [UInt8] {
        backlog.record(waiting)
        if let waitingTrails {
            trailsWaiting.record(waitingTrails.count)
            trailsWaitingBytes.record(waitingTrails.bytes)
        }
        if let awaiting { awaitingSymbols.record(awaiting) }
        return registry.emitToBuffer() + Array(Self.forwardingText(forwarding ?? [], now: now).utf8)
    }
}
