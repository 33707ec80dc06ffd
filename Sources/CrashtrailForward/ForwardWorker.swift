import CrashtrailCore
import CrashtrailStore
import Foundation
import Logging
import Synchronization

/// Sends the forwarding outbox to its upstreams (SPEC section 17): claims due reports for a lease, builds each one's
/// envelope, posts them a few at a time, and settles each: delivered, retried after a backoff with jitter (or after the
/// upstream's `Retry-After`, the whole upstream waiting), or set aside with the reason it can never succeed.
///
/// Delivery is at least once: a sender that dies after the upstream took a report and before settling it leaves the
/// row to be claimed again when its lease ends, and the upstream's deduplication by event ID makes it once. Several
/// senders on one store (many `serve` instances on PostgreSQL) share the outbox; a claim is never held by two.
package final class ForwardWorker: Sendable {
    /// What a claimed report is to the sender.
    package enum Prepared: Sendable {
        /// Ready: its envelope.
        case envelope([UInt8])
        /// Not yet: it waits for its trail until then (milliseconds since 1970).
        case hold(until: Int64)
        /// It cannot be made into an event: set aside with why.
        case unconvertible(String)
    }

    package struct Options: Sendable {
        /// The most reports one claim takes: two rounds of sends, so a claim's lease outlasts its sends.
        package var batch = 16
        /// The most sends in flight for one upstream.
        package var concurrency = 8
        /// How long a claim holds a report, in milliseconds: past it, another sender may take it.
        ///
        /// Longer than a claim's sends can take (two rounds of the client's 5 s connect and 20 s answer timeouts). A
        /// sender killed midway leaves its reports to others after it; one that outlives its lease settles nothing
        /// another sender took meanwhile.
        package var lease: Int64 = 60_000
        /// How long an idle sender waits before looking again, in seconds.
        package var poll = 0.05
        package var backoff = ForwardBackoff()
        /// Whether ``ForwardWorker/run()`` sends on a thread of its own at the lowest priority (`serve`, so forwarding
        /// never slows the requests it answers), or on the caller's executor (`forward`, which has nothing else to do).
        package var runsInBackground = false

        package init() {}
    }

    /// What one pass did.
    package struct PassResult: Hashable, Sendable {
        package var delivered = 0
        package var retried = 0
        package var setAside = 0
        package var held = 0
        package var claimed: Int { delivered + retried + setAside + held }
    }

    private let store: ReportStore
    /// Where claims and settlements are written.
    private let outbox: any ForwardOutbox
    private let upstreams: [UpstreamDSN]
    private let client: UpstreamClient
    private let prepare: @Sendable (ForwardClaim) -> Prepared
    private let options: Options
    private let time: TimeSource
    private let random: @Sendable () -> Double
    private let logger: Logger
    /// Upstreams that asked to wait (429), until when.
    private let paused = Mutex<[String: Int64]>([:])
    /// Where ``run()`` sends when ``Options/runsInBackground``.
    private let background: BackgroundThread?

    /// - Parameters:
    ///   - store: the store whose outbox is sent.
    ///   - outbox: where claims and settlements are written: the store's own transactions when nil.
    ///   - upstreams: where to.
    ///   - client: the HTTP client.
    ///   - options: batch, concurrency, lease, poll and backoff.
    ///   - time: the clock.
    ///   - random: 0 to 1, for the jitter.
    ///   - logger: where failures and set-asides are logged.
    ///   - prepare: the envelope of a claimed report (or why not yet, or why never).
    package init(
        store: ReportStore, outbox: (any ForwardOutbox)? = nil, upstreams: [UpstreamDSN], client: UpstreamClient,
        options: Options = Options(),
        time: TimeSource = .system,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }, logger: Logger = Logger(label: "crashtrail.forward"),
        prepare: @escaping @Sendable (ForwardClaim) -> Prepared
    ) {
        self.store = store
        self.outbox = outbox ?? store
        self.upstreams = upstreams
        self.client = client
        self.options = options
        self.time = time
        self.random = random
        self.logger = logger
        self.prepare = prepare
        background = options.runsInBackground ? BackgroundThread(name: "crashtrail-fwd") : nil
    }

    deinit { background?.stop() }

    /// Sends until the task is cancelled, looking again every `poll` seconds when nothing is due: on the background
    /// thread with ``Options/runsInBackground``.
    package func run() async {
        guard let background else { return await send() }
        await withTaskExecutorPreference(background) { await send() }
    }

    private func send() async {
        while !Task.isCancelled {
            let result = await pass()
            if result.claimed == 0 { await atNormalPriority { try? await Task.sleep(for: .seconds(self.options.poll)) } }
        }
    }

    /// Runs `body` on the task pool rather than on the background thread.
    ///
    /// Whatever holds the store's writer or its connections, or hands work to threads that may be started for it (a
    /// thread starts with the priority of the thread that starts it), must not run at the lowest priority: a starved
    /// background thread would hold up intake, or pass its priority on to threads that answer requests.
    private func atNormalPriority<T: Sendable, Failure: Error>(
        _ body: @Sendable () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        guard background != nil else { return try await body() }
        return try await withTaskExecutorPreference(globalConcurrentExecutor, operation: body)
    }

    /// Sends until nothing is waiting for these upstreams (delivered or set aside), or `deadline` (milliseconds since
    /// 1970) passes: for `crashtrail forward`.
    /// - Returns: the totals, and how many still wait at the end.
    package func drain(deadline: Int64, progress: @Sendable (PassResult) -> Void = { _ in }) async throws(StoreError) -> (
        PassResult, waiting: Int
    ) {
        var total = PassResult()
        while true {
            let result = await pass()
            total.delivered += result.delivered
            total.retried += result.retried
            total.setAside += result.setAside
            total.held += result.held
            if result.claimed > 0 { progress(total) }
            let waiting = try store.waitingForwarding(upstreams: upstreams.map(\.identity))
            if waiting == 0 || time.now() >= deadline || Task.isCancelled { return (total, waiting) }
            if result.claimed == 0 { try? await Task.sleep(for: .seconds(options.poll)) }
        }
    }

    /// One pass over the upstreams: at most one claim of each, sent and settled.
    package func pass() async -> PassResult {
        var result = PassResult()
        for upstream in upstreams {
            let start = time.now()
            if let until = paused.withLock({ $0[upstream.identity] }), until > start { continue }
            do {
                let (store, outbox, batch, lease) = (store, outbox, options.batch, options.lease)
                let claims = try await atNormalPriority { () async throws -> [ForwardClaim] in
                    guard try store.hasDueForwarding(upstream: upstream.identity, now: start) else { return [] }
                    return try await outbox.claim(upstream: upstream.identity, limit: batch, now: start, lease: lease)
                }
                guard !claims.isEmpty else { continue }
                let settlements = await send(claims, to: upstream)
                let now = time.now()
                try await atNormalPriority { try await outbox.settle(settlements, now: now) }
                for (_, settlement) in settlements {
                    switch settlement {
                    case .delivered: result.delivered += 1
                    case .retry(_, _, let counts): if counts { result.retried += 1 } else { result.held += 1 }
                    case .setAside: result.setAside += 1
                    }
                }
            } catch {
                logger.error("forwarding to \(upstream.identity) failed: \(error)")
            }
        }
        return result
    }

    private func send(_ claims: [ForwardClaim], to upstream: UpstreamDSN) async -> [(ForwardClaim, ForwardSettlement)] {
        await withTaskGroup(of: (ForwardClaim, ForwardSettlement).self) { group in
            var settlements: [(ForwardClaim, ForwardSettlement)] = []
            var pending = claims[...]
            var running = 0
            while running < options.concurrency, let claim = pending.popFirst() {
                group.addTask { (claim, await self.deliver(claim, to: upstream)) }
                running += 1
            }
            while let settled = await group.next() {
                settlements.append(settled)
                if let claim = pending.popFirst() { group.addTask { (claim, await self.deliver(claim, to: upstream)) } }
            }
            return settlements
        }
    }

    private func deliver(_ claim: ForwardClaim, to upstream: UpstreamDSN) async -> ForwardSettlement {
        if let until = paused.withLock({ $0[upstream.identity] }), until > time.now() {
            return .retry(due: until, reason: "the upstream asked to wait", counts: false)
        }
        switch prepare(claim) {
        case .hold(let until):
            return .retry(due: until, reason: "waiting for its trail", counts: false)
        case .unconvertible(let reason):
            logger.warning("report \(claim.reportID) set aside for \(upstream.identity): \(reason)")
            return .setAside(reason: reason)
        case .envelope(let bytes):
            switch await client.send(bytes, to: upstream) {
            case .delivered:
                return .delivered
            case .rateLimited(let seconds, let reason):
                let until = time.now() + Int64(seconds * 1000)
                paused.withLock { $0[upstream.identity] = max($0[upstream.identity] ?? 0, until) }
                logger.notice("\(upstream.identity) asked to wait \(seconds) s: \(reason)")
                return .retry(due: until, reason: reason, counts: true)
            case .failed(let reason):
                let delay = options.backoff.delay(afterAttempts: claim.attempts + 1, unit: random())
                return .retry(due: time.now() + Int64(delay * 1000), reason: reason, counts: true)
            case .rejected(let reason):
                logger.warning("report \(claim.reportID) set aside for \(upstream.identity): \(reason)")
                return .setAside(reason: reason)
            }
        }
    }
}
