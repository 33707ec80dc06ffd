import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import Foundation

/// Counts and quarantine of one ingest run, updated as each batch's transaction commits.
struct RunState: Sendable {
    var summary = IngestSummary()
    let quarantine: Quarantine
    let tracksMissing: Bool
    /// IDs of reports stored in this run without a recorded trail, when a trails folder may join them, with whether
    /// their trail was inferred.
    var newMissing: [String: Bool] = [:]
    /// How many of them a trail joined, apart by whether their trail had been inferred.
    var joinedNew = 0
    var joinedNewInferred = 0
    /// What stopped the run: nothing more is stored after it.
    var failure: IngestError?

    init(quarantine: Quarantine, tracksMissing: Bool) {
        self.quarantine = quarantine
        self.tracksMissing = tracksMissing
    }

    /// Counts a batch of parsed inputs whose reports were stored with `outcomes` (in order), and quarantines what it
    /// refused.
    /// - Throws: `IngestError` (`quarantine`) when a refused input cannot be kept.
    mutating func count(
        _ results: [ParsedInput], outcomes: [ReportStore.InsertOutcome], joinedWaiting: Set<String> = []
    ) throws(IngestError) {
        var outcomes = outcomes.makeIterator()
        var rejections: [(RejectionError, String, [UInt8])] = []
        var tooLarge: [(RejectionError, String)] = []
        for result in results {
            summary.inputs += result.inputs
            for step in result.steps {
                switch step {
                case .outcome(.record(let record)):
                    guard let outcome = outcomes.next() else { continue }
                    count(outcome, trailSource: record.trailSource)
                    if case .stored(let id) = outcome, joinedWaiting.contains(id) {
                        countJoinedWaiting(id, trailSource: record.trailSource)
                    }
                case .outcome(.rejected(let reason, let source, let bytes)):
                    rejections.append((reason, source, bytes))
                case .outcome(.skipped(let count, _)):
                    summary.skippedDiagnostics += count
                case .tooLarge(let reason, let source):
                    tooLarge.append((reason, source))
                case .alreadyStored:
                    summary.duplicates += 1
                }
            }
        }
        for (reason, source, bytes) in rejections { try reject(reason, source: source, bytes: bytes) }
        for (reason, source) in tooLarge { try rejectReasonOnly(reason, source: source) }
    }

    /// Recounts a report just stored whose trail was waiting for it (SPEC section 18): joined, not missing.
    private mutating func countJoinedWaiting(_ id: String, trailSource: TrailInfo.Source) {
        summary.trailsJoined += 1
        if trailSource == .inferred { summary.trailsInferred -= 1 } else { summary.trailsMissing -= 1 }
        newMissing[id] = nil
    }

    /// Counts one stored report by where its trail came from.
    private mutating func count(_ outcome: ReportStore.InsertOutcome, trailSource: TrailInfo.Source) {
        switch outcome {
        case .duplicate: summary.duplicates += 1
        case .stored(let id):
            summary.stored += 1
            switch trailSource {
            case .embedded: summary.trailsEmbedded += 1
            case .undecodable: summary.trailsUndecodable += 1
            case .inferred:
                summary.trailsInferred += 1
                if tracksMissing { newMissing[id] = true }
            case .missing, .joined:
                summary.trailsMissing += 1
                if tracksMissing { newMissing[id] = false }
            }
        }
    }

    /// Counts a batch of trail files, `joined` the reports those that were decoded joined (in order), and quarantines
    /// the refused ones.
    /// - Throws: `IngestError` (`quarantine`) when a refused file cannot be kept.
    mutating func countTrails(
        _ decoded: [(path: String, result: Result<JoinableTrail, RejectionError>)], outcomes: [IntakeOutcome], maximumSize: Int
    ) throws(IngestError) {
        summary.inputs += decoded.count
        var joined: [String] = []
        for outcome in outcomes {
            switch outcome {
            case .trail(let id?): joined.append(id)
            case .trailWaiting: summary.trailsWaiting += 1
            case .trailWaitingFull: summary.trailsNotKept += 1
            case .counted: summary.sessionTrails += 1
            default: break
            }
        }
        for id in joined {
            summary.trailsJoined += 1
            switch newMissing[id] {
            case true?: joinedNewInferred += 1
            case false?: joinedNew += 1
            case nil: break
            }
        }
        for (path, result) in decoded {
            guard case .failure(let reason) = result else { continue }
            guard reason.code != .tooLarge else {
                try rejectReasonOnly(reason, source: path)
                continue
            }
            let bytes = (try? InputFile.readOrRefuse(path, maximumSize: maximumSize, kind: .trail).get()) ?? []
            try reject(reason, source: path, bytes: bytes)
        }
    }

    /// Counts a refusal and writes only its reason file, for inputs too large to copy.
    mutating func rejectReasonOnly(_ reason: RejectionError, source: String) throws(IngestError) {
        summary.reject(reason.code)
        do {
            try quarantine.keepReasonOnly(source: source, reason: reason)
        } catch {
            throw IngestError(
                .quarantine,
                "could not write the reason for \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)",
                cause: error
            )
        }
    }

    /// Counts a refusal and copies the refused bytes to the quarantine with their reason.
    mutating func reject(_ reason: RejectionError, source: String, bytes: [UInt8]) throws(IngestError) {
        summary.reject(reason.code)
        do {
            try bytes.withUnsafeBufferPointer { try quarantine.keep($0, source: source, reason: reason) }
        } catch {
            throw IngestError(
                .quarantine,
                "could not copy the refused input \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)",
                cause: error
            )
        }
    }

    /// Runs `body` unless the run has stopped, keeping the failure it throws.
    mutating func unlessStopped(_ body: (inout RunState) throws(IngestError) -> Void) {
        guard failure == nil else { return }
        do throws(IngestError) { try body(&self) } catch { failure = error }
    }
}
