import CrashtrailCore

/// What `crashtrail reprocess` did.
public struct ReprocessSummary: Hashable, Sendable {
    /// Reports read again from their payloads in this run.
    public var examined = 0
    /// Reports whose derived fields changed (a new signature, a trail decoded, a joined trail's screen path, …).
    public var changed = 0
    /// Reports left as they were because their payload could not be read or no longer parses; each with why.
    public var unreadable: [String: String] = [:]
    /// Whether this run continued one that had stopped.
    public var resumed = false

    public init() {}
}

/// `crashtrail reprocess`: every stored report derived again from its stored payload, as this version derives it.
extension ReportStore {
    /// Derives every stored report again from its payload with `decoder`, in ID order and batches, each batch one
    /// transaction that also records how far the job got: a job that stops (killed, or an error) resumes after the
    /// last batch it finished, and a finished job leaves nothing behind.
    ///
    /// Running it again changes nothing.
    /// - Parameters:
    ///   - deriver: derives a report from its payload (with the store's manifests for embedded trails).
    ///   - batchSize: reports a transaction holds.
    ///   - progress: called after each batch with the reports done and the total.
    /// - Returns: what the run examined and changed.
    /// - Throws: `StoreError` (`database`).
    package func reprocess(
        with deriver: any ReportDeriving, batchSize: Int = 256, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(StoreError) -> ReprocessSummary {
        var summary = ReprocessSummary()
        var cursor = try read { db in try db.value("SELECT lastID FROM reprocessCursor WHERE job = 'reprocess'")?.text }
        summary.resumed = cursor != nil
        let total = try read { db in try db.value("SELECT COUNT(*) FROM report")?.integer.map(Int.init) ?? 0 }
        var done = try read { db in
            try db.value("SELECT COUNT(*) FROM report WHERE id <= ?", [.text(cursor ?? "")])?.integer.map(Int.init) ?? 0
        }
        let assignments = ReportColumn.allCases.filter(\.isDerived).map { "\($0.name) = ?" }.joined(separator: ", ")
        while true {
            let batch = try read { db in
                try db.rows(
                    """
                    SELECT r.*, j.trail AS joinedTrail, j.dictionary AS joinedDictionary, j.screenPath AS joinedScreenPath,
                        j.pathManifest AS joinedPathManifest
                    FROM report r LEFT JOIN joinedTrail j ON j.id = r.id WHERE r.id > ? ORDER BY r.id LIMIT ?
                    """, [.text(cursor ?? ""), .integer(Int64(max(1, batchSize)))]
                )
                .map { row in
                    (
                        record: try ReportRecord(row: row), joined: row.string("joinedTrail"), dictionary: row.string("joinedDictionary"),
                        joinedPath: StoredScreenPath(
                            screensJSON: row.string("joinedScreenPath"), manifest: row.string("joinedPathManifest"))
                    )
                }
            }
            guard let last = batch.last?.record else { break }
            var updates: [(id: String, record: ReportRecord)] = []
            var joinedPaths: [(id: String, path: StoredScreenPath)] = []
            for (stored, joined, dictionary, joinedPath) in batch {
                summary.examined += 1
                // A joined trail's screen path, for trails joined before paths were kept or since replayed otherwise.
                var changed = false
                if let joined, let path = deriver.screenPath(ofJoinedTrail: joined, dictionaryID: dictionary), path != joinedPath {
                    joinedPaths.append((stored.id, path))
                    changed = true
                }
                switch deriver.derive(stored) {
                case .record(var again):
                    // A trail joined later wins over what the payload gives, and names the group of a crash without frames.
                    if let joined { again.signature = deriver.signature(of: again, joinedTrail: joined, dictionaryID: dictionary) }
                    if again.derivedValues != stored.derivedValues {
                        updates.append((stored.id, again))
                        changed = true
                    }
                case .failure(let why):
                    summary.unreadable[stored.id] = why
                }
                if changed { summary.changed += 1 }
            }
            try write { db in
                for update in updates {
                    try db.execute("UPDATE report SET \(assignments) WHERE id = ?", update.record.derivedValues + [.text(update.id)])
                }
                for joined in joinedPaths {
                    try db.execute(
                        "UPDATE joinedTrail SET screenPath = ?, pathManifest = ? WHERE id = ?",
                        [.text(joined.path.screensJSON), .text(joined.path.manifest), .text(joined.id)])
                }
                try db.execute(
                    "INSERT INTO reprocessCursor (job, lastID) VALUES ('reprocess', ?) ON CONFLICT (job) DO UPDATE SET lastID = excluded.lastID",
                    [.text(last.id)])
            }
            cursor = last.id
            done += batch.count
            progress?(done, total)
        }
        try write { db in try db.execute("DELETE FROM reprocessCursor WHERE job = 'reprocess'") }
        compact()
        return summary
    }
}
