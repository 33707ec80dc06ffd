import CrashtrailCore

/// What `crashtrail reprocess` did.
public struct ReprocessSummary: Hashable, Sendable {
    /// Reports read again from their payloads in this run.
    public var examined = 0
    /// Reports whose derived fields changed (a new signature, a trail decoded, …).
    public var changed = 0
    /// Reports left as they were because their payload could not be read or no longer parses; each with why.
    public var unreadable: [String: String] = [:]
    /// Whether this run continued one that had stopped.
    public var resumed = false

    public init() {}
}

extension ReportRecord {
    /// Whether this record, made again from a stored report's payload, is that report: the same payload digest and the
    /// same ID (a MetricKit payload gives several reports with one digest), or the ID it was renamed from (`ID~…`).
    func derives(_ stored: ReportRecord) -> Bool {
        sha256 == stored.sha256 && (id == stored.id || stored.id.hasPrefix(id + "~"))
    }
}

/// `crashtrail reprocess`: every stored report derived again from its stored payload, as this version derives it.
extension ReportStore {
    /// The derived columns a reprocess may change: everything but the ID, the payload, its digest and size, and where
    /// it came from.
    static let derivedColumns = [
        "format", "bundleID", "appVersion", "appBuild", "osName", "osVersion", "device", "time", "exceptionType", "exceptionCode",
        "exceptionSignal", "exceptionReason", "frames", "signature", "trailSource", "trailSteps", "trailError", "trail", "pid",
        "launchTime",
    ]

    /// Derives every stored report again from its payload with `decoder`, in ID order and batches, each batch one
    /// transaction that also records how far the job got: a job that stops (killed, or an error) resumes after the
    /// last batch it finished, and a finished job leaves nothing behind. Running it again changes nothing.
    /// - Parameters:
    ///   - decoder: decodes embedded trails (the store's manifests).
    ///   - batchSize: reports a transaction holds.
    ///   - progress: called after each batch with the reports done and the total.
    /// - Throws: `StoreError` (`database`).
    public func reprocess(
        with decoder: any TrailDecoding, batchSize: Int = 256, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(StoreError) -> ReprocessSummary {
        var summary = ReprocessSummary()
        var cursor = try read { db in try db.value("SELECT lastID FROM reprocessCursor WHERE job = 'reprocess'")?.text }
        summary.resumed = cursor != nil
        let total = try read { db in try db.value("SELECT COUNT(*) FROM report")?.integer.map(Int.init) ?? 0 }
        var done = try read { db in
            try db.value("SELECT COUNT(*) FROM report WHERE id <= ?", [.text(cursor ?? "")])?.integer.map(Int.init) ?? 0
        }
        let processor = PayloadProcessor(decoder: decoder)
        let assignments = Self.derivedColumns.map { "\($0) = ?" }.joined(separator: ", ")
        while true {
            let batch = try read { db in
                try db.rows("SELECT * FROM report WHERE id > ? ORDER BY id LIMIT ?", [.text(cursor ?? ""), .integer(Int64(max(1, batchSize)))])
                    .map(ReportRecord.init(row:))
            }
            guard let last = batch.last else { break }
            var updates: [(id: String, record: ReportRecord)] = []
            for stored in batch {
                summary.examined += 1
                switch Self.derive(stored, with: processor) {
                case .record(let again):
                    if Self.derivedValues(of: again) != Self.derivedValues(of: stored) { updates.append((stored.id, again)) }
                case .failure(let why):
                    summary.unreadable[stored.id] = why
                }
            }
            try write { db in
                for update in updates {
                    try db.execute("UPDATE report SET \(assignments) WHERE id = ?", Self.derivedValues(of: update.record) + [.text(update.id)])
                }
                try db.execute(
                    "INSERT INTO reprocessCursor (job, lastID) VALUES ('reprocess', ?) ON CONFLICT (job) DO UPDATE SET lastID = excluded.lastID",
                    [.text(last.id)])
            }
            summary.changed += updates.count
            cursor = last.id
            done += batch.count
            progress?(done, total)
        }
        try write { db in try db.execute("DELETE FROM reprocessCursor WHERE job = 'reprocess'") }
        return summary
    }

    /// Where each derived column is in ``ReportRecord/storeValues``.
    static let derivedColumnIndexes = derivedColumns.compactMap { ReportRecord.columns.firstIndex(of: $0) }

    /// What a stored payload gives now.
    enum Derivation {
        case record(ReportRecord)
        case failure(String)
    }

    /// The report its payload gives now, or why it gives none.
    static func derive(_ stored: ReportRecord, with processor: PayloadProcessor) -> Derivation {
        let payload: [UInt8]
        do {
            payload = try stored.rawPayload()
        } catch {
            return .failure("its stored payload is damaged: \(error)")
        }
        let outcomes = payload.withUnsafeBufferPointer { buffer in
            stored.format == ReportFormat.crashlytics.rawValue
                ? processor.processLine(buffer, source: stored.source) : processor.process(buffer, source: stored.source).outcomes
        }
        var refusal: String?
        for outcome in outcomes {
            switch outcome {
            case .record(let record) where record.derives(stored): return .record(record)
            case .rejected(let error, _, _): refusal = refusal ?? "\(error)"
            default: continue
            }
        }
        return .failure("its payload no longer gives a report" + (refusal.map { ": \($0)" } ?? ""))
    }

    /// The derived columns' values, in `derivedColumns` order.
    static func derivedValues(of record: ReportRecord) -> [StoreValue] {
        let values = record.storeValues
        return derivedColumnIndexes.map { values[$0] }
    }
}
