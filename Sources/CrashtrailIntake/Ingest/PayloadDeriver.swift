import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import CrashtrailSymbols

/// The one "derive a report from its payload" step: a stored payload read again as ingest reads a new one, for
/// `crashtrail reprocess` and for trails that waited for their manifest (`ReportDeriving`).
package struct PayloadDeriver: ReportDeriving {
    let processor: PayloadProcessor

    /// A deriver that decodes embedded trails with `decoder` (a codec with the store's manifests) and names frames with
    /// `symbolicator` (the store's debug files), when given, and groups by `grouping` (the store's rules and merges).
    package init(decoder: any TrailDecoding, symbolicator: Symbolicator? = nil, grouping: GroupingSource = .fixed(.none)) {
        processor = PayloadProcessor(decoder: decoder, symbolicator: symbolicator, grouping: grouping)
    }

    package func derive(_ stored: ReportRecord) -> ReportDerivation {
        let payload: [UInt8]
        do {
            payload = try stored.rawPayload()
        } catch {
            return .failure("its stored payload is damaged: \(error)")
        }
        // Derived in the project it was stored in: its debug files name its frames.
        let outcomes = payload.withUnsafeBufferPointer { buffer in
            stored.format == .crashlytics
                ? processor.processLine(buffer, source: stored.source, project: stored.project)
                : processor.process(buffer, source: stored.source, project: stored.project).outcomes
        }
        var refusal: String?
        for outcome in outcomes {
            switch outcome {
            case .record(let record) where Self.record(record, derives: stored):
                return .record(record)
            case .rejected(let error, _, _): refusal = refusal ?? "\(error.code): \(error.message)"
            default: continue
            }
        }
        return .failure("its payload no longer gives a report" + (refusal.map { ": \($0)" } ?? ""))
    }

    package func signature(of derived: ReportRecord, joinedTrail trailJSON: String, dictionaryID: String?) -> String {
        guard StacklessSignature.head(of: derived.signature) != nil, let trail = try? Trail(json: Array(trailJSON.utf8)) else {
            return derived.signature
        }
        let manifest = processor.decoder.manifest(forApp: trail.app.bundleID, dictionaryID: dictionaryID)
        let renamed = StacklessSignature.renamed(derived.signature, crashScreen: trail.crashScreen(manifest: manifest))
        return processor.grouping.current.merged(renamed, project: derived.project)
    }

    package func screenPath(ofJoinedTrail trailJSON: String, dictionaryID: String?) -> StoredScreenPath? {
        guard let trail = try? Trail(json: Array(trailJSON.utf8)),
            let manifest = processor.decoder.manifest(forApp: trail.app.bundleID, dictionaryID: dictionaryID)
        else { return nil }
        return StoredScreenPath(trail: trail, manifest: manifest)
    }

    /// Whether `record`, made again from a stored report's payload, is that report: the same payload digest and the
    /// same ID (a MetricKit payload gives several reports with one digest), or the ID it was renamed from (`ID~…`).
    static func record(_ record: ReportRecord, derives stored: ReportRecord) -> Bool {
        record.sha256 == stored.sha256 && (record.id == stored.id || stored.id.hasPrefix(record.id + "~"))
    }
}
