import CrashtrailIntake
import CrashtrailStore
import Foundation

/// What an ingest did.
public struct IngestResult: Sendable {
    /// The pipeline's counts (SPEC section 8).
    public var summary: IngestSummary
    /// Stored reports whose trail waited for a manifest given now and is decoded now.
    public var decodedLater: Int
}

extension TriageService {
    /// Ingests `options.inputs`: keeps the manifests given (so later commands need none), decodes trails with them and
    /// those the store keeps, runs the pipeline, then decodes the stored trails that waited for a new manifest.
    ///
    /// The store's own files are never read as inputs. The reports and trails go to `project`, by ID or name, or to the
    /// store's only project (`ReportStore.writingProject(named:)`).
    /// - Throws: `StoreError` or `IngestError`; refused inputs are counted and quarantined, not thrown.
    public func ingest(
        _ options: IngestOptions, project: String? = nil, manifests: [LoadedManifest], observer: (any IngestProgressObserver)? = nil
    ) throws -> IngestResult {
        var options = options
        options.project = try store.writingProject(named: project)
        var added = 0
        for loaded in manifests where try store.addManifest(loaded.manifest, text: loaded.text) { added += 1 }
        let codec = try codec(given: manifests.map(\.manifest))
        let summary = try IngestPipeline(store: store, decoder: codec, options: options).run(observer: observer)
        let decodedLater = added > 0 ? try decodePendingTrails() : 0
        return IngestResult(summary: summary, decodedLater: decodedLater)
    }

    /// Derives every stored report again from its payload, after an upgrade (`ReportStore.reprocess(with:batchSize:progress:)`),
    /// with the manifests the store keeps and `manifests`, which it keeps too.
    /// - Throws: `StoreError`.
    public func reprocess(
        manifests: [LoadedManifest], progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ReprocessSummary {
        for loaded in manifests { try store.addManifest(loaded.manifest, text: loaded.text) }
        return try store.reprocess(with: try deriver(), progress: progress)
    }

    /// How many trails wait for their crashes (SPEC section 18), their bytes, and when the oldest came.
    /// - Throws: `StoreError`.
    package func waitingTrailStatus() throws(StoreError) -> ReportStore.WaitingTrailStatus {
        try store.waitingTrailStatus()
    }

    /// Joins the trails received since `since` that wait though their crash is stored
    /// (``ReportStore/sweepWaitingTrails(tolerance:since:limit:)``).
    /// - Throws: `StoreError`.
    package func sweepWaitingTrails(tolerance: Int64, since: Int64) throws(StoreError) -> [String] {
        try store.sweepWaitingTrails(tolerance: tolerance, since: since)
    }
}
