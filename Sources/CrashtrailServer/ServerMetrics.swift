import CoreMetrics
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
    /// Each endpoint and status's counter and timer, made once: making them looks them up in the registry.
    private let handles = NIOLockedValueBox<[String: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])

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
    }

    /// Counts a request answered, and how long it took.
    func answered(endpoint: String, status: Int, since start: DispatchTime) {
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
        timer.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds))
    }

    /// Counts reports committed.
    func committed(stored count: Int, duplicates duplicateCount: Int) {
        if count > 0 { stored.increment(by: count) }
        if duplicateCount > 0 { duplicates.increment(by: duplicateCount) }
    }

    /// The Prometheus text, with the backlog as it is now.
    func text(backlog waiting: Int) -> [UInt8] {
        backlog.record(waiting)
        return registry.emitToBuffer()
    }
}
