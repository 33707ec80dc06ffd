import CrashtrailStore
import Foundation

/// Counts and quarantine of one run, updated on the writing thread only.
struct RunState {
    var summary = IngestSummary()
    let quarantine: Quarantine
    let tracksMissing: Bool
    /// IDs of reports stored in this run without a recorded trail, when a trails folder may join them, with whether
    /// their trail was inferred.
    var newMissing: [String: Bool] = [:]
    /// How many of them a trail joined, apart by whether their trail had been inferred.
    var joinedNew = 0
    var joinedNewInferred = 0

    init(quarantine: Quarantine, tracksMissing: Bool) {
        self.quarantine = quarantine
        self.tracksMissing = tracksMissing
    }

    mutating func store(_ results: [ParsedInput], in store: ReportStore) throws(IngestError) {
        var rejections: [(RejectionError, String, [UInt8])] = []
        var tooLarge: [(RejectionError, String)] = []
        do {
            let tracksMissing = self.tracksMissing
            let before = (summary: self.summary, newMissing: self.newMissing)
            var summary = before.summary
            var newMissing = before.newMissing
            try store.write { db in
                // Each run of the transaction starts again from the state before it: a backend may run it again after
                // a lost connection or a deadlock with another job.
                summary = before.summary
                newMissing = before.newMissing
                rejections = []
                tooLarge = []
                // Every report of the batch in multi-row statements, then each outcome counted in input order.
                let records = results.flatMap { result in
                    result.steps.compactMap { step -> ReportRecord? in if case .outcome(.record(let record)) = step { record } else { nil }
                    }
                }
                var outcomes = try ReportStore.insert(records, in: db).makeIterator()
                for result in results {
                    summary.inputs += result.inputs
                    for step in result.steps {
                        switch step {
                        case .outcome(.record(let record)):
                            guard let outcome = outcomes.next() else { continue }
                            switch outcome {
                            case .duplicate: summary.duplicates += 1
                            case .stored(let id):
                                summary.stored += 1
                                switch record.trailSource {
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
            }
            self.summary = summary
            self.newMissing = newMissing
        } catch {
            throw IngestError(.store, "could not store a batch of reports: \(error)")
        }
        for (reason, source, bytes) in rejections {
            try reject(reason, source: source, bytes: bytes)
        }
        for (reason, source) in tooLarge {
            try rejectReasonOnly(reason, source: source)
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
                "could not write the reason for \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)"
            )
        }
    }

    mutating func reject(_ reason: RejectionError, source: String, bytes: [UInt8]) throws(IngestError) {
        summary.reject(reason.code)
        do {
            try bytes.withUnsafeBufferPointer { try quarantine.keep($0, source: source, reason: reason) }
        } catch {
            throw IngestError(
                .quarantine,
                "could not copy the refused input \(source) to the quarantine folder \(quarantine.directory.path): \(error.localizedDescription)"
            )
        }
    }
}
