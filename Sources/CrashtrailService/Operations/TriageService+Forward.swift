import CrashtrailCore
import CrashtrailForward
import CrashtrailReplay
import CrashtrailStore
import Foundation

/// Forwarding (SPEC section 17): what a stored report is when it is sent upstream, `crashtrail forward`, and the
/// outbox's status.
extension TriageService {
    /// How reports are made into events for the forwarding outbox.
    package struct ForwardPreparation: Sendable {
        /// Builds the events.
        package var builder: SentryEventBuilder
        /// How long a report without a trail waits for one before it goes without, in milliseconds.
        package var hold: Int64
        /// The service's public URL, for the replay link; none for a batch `forward`.
        package var publicURL: String?
        /// The manifests the trails are replayed with, read once: a manifest added later is used after a restart, as
        /// the rest of `serve` uses it.
        package var manifests: [Manifest]

        package init(builder: SentryEventBuilder, hold: Int64, publicURL: String?, manifests: [Manifest]) {
            self.builder = builder
            self.hold = hold
            self.publicURL = publicURL
            self.manifests = manifests
        }
    }

    /// The envelope of the claimed report, or why not yet (it waits for its trail) or never (a damaged payload).
    package func prepareForwarding(_ claim: ForwardClaim, _ preparation: ForwardPreparation, now: Int64) -> ForwardWorker.Prepared {
        let record: ReportRecord
        do {
            guard let found = try store.record(id: claim.reportID) else { return .unconvertible("the report is no longer stored") }
            record = found
        } catch {
            return .hold(until: now + 5_000)
        }
        if !record.trailSource.hasTrail, preparation.hold > 0, claim.queued + preparation.hold > now {
            return .hold(until: claim.queued + preparation.hold)
        }
        var original: EventObject?
        if record.format == .sentryEvent || record.format == .sentryEnvelope {
            do {
                original = SentryEnvelope.event(in: try record.rawPayload(), eventID: record.id)
            } catch {
                return .unconvertible("its stored payload cannot be read: \(error)")
            }
            if original == nil { return .unconvertible("its stored Sentry payload holds no event") }
        }
        let enrichment = forwardEnrichment(of: record, manifests: preparation.manifests, publicURL: preparation.publicURL)
        let eventID = SentryEventBuilder.eventID(of: record.id)
        let event = preparation.builder.event(of: record.report, original: original, enrichment: enrichment)
        let sentAt = Timestamp.rfc3339(milliseconds: now)
        return .envelope(SentryEnvelope.envelope(eventID: eventID, event: event, sentAt: sentAt))
    }

    /// What crashtrail adds to the report's event: the replay of its trail with its app's manifest, when it has both.
    package func forwardEnrichment(of record: ReportRecord, manifests: [Manifest], publicURL: String?) -> ForwardEnrichment {
        let group = CrashGroup.id(ofSignature: record.signature)
        var enrichment = ForwardEnrichment(
            source: record.trailSource, steps: record.trailSteps ?? 0, crumbs: [], crashScreens: [], links: [],
            replayURL: nil, group: group, signature: record.signature)
        guard record.trailSource.hasTrail, let trail = try? record.decodedTrail(),
            let selection = try? ManifestSelection(choosingFrom: manifests, forApp: trail.app.bundleID),
            selection.manifest.app == trail.app.bundleID
        else { return enrichment }
        let replay = Replayer(manifest: selection.manifest).replay(trail, report: record.id)
        let started = Timestamp.milliseconds(parsing: replay.session.started) ?? 0
        var previous: String?
        enrichment.crumbs = replay.steps.map { step in
            // The screens before and after the step: where the user was, and where the step left them.
            let to = step.top?.name ?? step.to?.name ?? step.op
            defer { previous = step.top?.name }
            return ForwardEnrichment.Crumb(time: Double(started + step.t) / 1000, op: step.op, from: previous, to: to, url: step.url)
        }
        enrichment.steps = replay.steps.count
        enrichment.crashScreens = replay.final.topStack.map(\.name)
        enrichment.links = replay.links.urls
        if let publicURL {
            enrichment.replayURL = publicURL.trimmingTrailingSlashes + "/reports/" + TriageSite.fileName(for: record.id) + ".html"
        }
        return enrichment
    }

    /// What `crashtrail forward` did.
    package struct ForwardSummary: Sendable {
        /// The upstream, without its key.
        package var upstream: String
        /// Reports newly queued for it by this run (the others were queued or delivered before).
        package var queued: Int
        package var delivered: Int
        /// Set aside by this run, each with its reason in the outbox (`forward --status`).
        package var setAside: Int
        /// Still waiting when the run stopped: a later `forward` or a `serve --forward` to it sends them.
        package var waiting: Int
    }

    /// Queues the stored reports `filter` selects for the upstream `dsn` (each once: those queued or delivered before
    /// stay as they are), then sends the upstream's outbox until it is empty or `wait` seconds pass.
    /// - Parameters:
    ///   - dsn: the upstream's DSN.
    ///   - filter: which stored reports.
    ///   - grouping: whether the events' fingerprint is crashtrail's signature.
    ///   - wait: the most seconds to keep sending.
    ///   - options: the sender's batch, concurrency and backoff.
    ///   - progress: told the totals after each batch.
    /// - Returns: what was queued, delivered, set aside, and what still waits.
    /// - Throws: `ForwardError` for a DSN that is not one, `StoreError`.
    package func forward(
        to dsn: String, filter: ReportFilter, grouping: Bool, wait: Double, options: ForwardWorker.Options = .init(),
        progress: @escaping @Sendable (ForwardWorker.PassResult) -> Void = { _ in }
    ) async throws -> ForwardSummary {
        let upstream = try UpstreamDSN(dsn)
        let time = self.time
        let queued = try store.queueForwarding(filter, to: upstream.identity, now: time.now())
        let client = UpstreamClient()
        let preparation = ForwardPreparation(
            builder: SentryEventBuilder(grouping: grouping), hold: 0, publicURL: nil, manifests: (try? store.storedManifests()) ?? [])
        let worker = ForwardWorker(store: store, upstreams: [upstream], client: client, options: options, time: time) { [self] claim in
            prepareForwarding(claim, preparation, now: time.now())
        }
        do {
            let (result, waiting) = try await worker.drain(deadline: time.now() + Int64(wait * 1000), progress: progress)
            await client.shutdown()
            return ForwardSummary(
                upstream: upstream.identity, queued: queued, delivered: result.delivered, setAside: result.setAside, waiting: waiting)
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// The forwarding outbox of every upstream.
    /// - Throws: `StoreError`.
    package func forwardingStatus() throws(StoreError) -> [ForwardStatus] {
        try store.forwardingStatus()
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
