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
        while true {
            let batch = try read { db in
                try db.rows(
                    Self.storedBatchSQL(condition: "r.id > ? ORDER BY r.id LIMIT ?"),
                    [.text(cursor ?? ""), .integer(Int64(max(1, batchSize)))]
                )
                .map(StoredForDerivation.init(row:))
            }
            guard let last = batch.last?.record else { break }
            let cursorAt = last.id
            try deriveAgain(batch, with: deriver, into: &summary) { db in
                try db.execute(
                    "INSERT INTO reprocessCursor (job, lastID) VALUES ('reprocess', ?) ON CONFLICT (job) DO UPDATE SET lastID = excluded.lastID",
                    [.text(cursorAt)])
            }
            cursor = last.id
            done += batch.count
            progress?(done, total)
        }
        try write { db in try db.execute("DELETE FROM reprocessCursor WHERE job = 'reprocess'") }
        compact()
        return summary
    }

    /// Derives again from their payloads the stored reports `ids` (those a debug file that just arrived describes), in
    /// batches of one transaction each, and moves them to their new groups.
    ///
    /// A job killed midway leaves each batch stored whole or not at all; the reports it did not reach still name the
    /// debug file as not applied (`reportImage`), so the next run finds them.
    /// - Parameters:
    ///   - ids: the reports.
    ///   - deriver: derives a report from its payload, with the debug files.
    ///   - batchSize: reports a transaction holds.
    ///   - progress: called after each batch with the reports done and the total.
    /// - Returns: what the run examined and changed.
    /// - Throws: `StoreError` (`database`).
    package func deriveAgain(
        ids: [String], with deriver: any ReportDeriving, batchSize: Int = 256, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(StoreError) -> ReprocessSummary {
        var summary = ReprocessSummary()
        var done = 0
        var start = 0
        while start < ids.count {
            let slice = Array(ids[start..<min(ids.count, start + max(1, batchSize))])
            start += slice.count
            let placeholders = slice.map { _ in "?" }.joined(separator: ", ")
            let batch = try read { db in
                try db.rows(Self.storedBatchSQL(condition: "r.id IN (\(placeholders)) ORDER BY r.id"), slice.map { .text($0) })
                    .map(StoredForDerivation.init(row:))
            }
            try deriveAgain(batch, with: deriver, into: &summary) { _ in }
            done += slice.count
            progress?(done, ids.count)
        }
        compact()
        return summary
    }

    /// A stored report as derivation reads it: its row, and the trail joined to it with its dictionary and path.
    private struct StoredForDerivation {
        var record: ReportRecord
        var joined: String?
        var dictionary: String?
        var joinedPath: StoredScreenPath?

        init(row: StoreRow) throws {
            record = try ReportRecord(row: row)
            joined = row.string("joinedTrail")
            dictionary = row.string("joinedDictionary")
            joinedPath = StoredScreenPath(screensJSON: row.string("joinedScreenPath"), manifest: row.string("joinedPathManifest"))
        }
    }

    /// The SQL reading stored reports with their joined trails, where `condition` holds.
    private static func storedBatchSQL(condition: String) -> String {
        """
        SELECT r.*, j.trail AS joinedTrail, j.dictionary AS joinedDictionary, j.screenPath AS joinedScreenPath,
            j.pathManifest AS joinedPathManifest
        FROM report r LEFT JOIN joinedTrail j ON j.id = r.id WHERE \(condition)
        """
    }

    /// Derives `batch` again and stores what changed in one transaction, with `alsoIn` run in it too.
    private func deriveAgain(
        _ batch: [StoredForDerivation], with deriver: any ReportDeriving, into summary: inout ReprocessSummary,
        alsoIn: (any StoreTransaction) throws -> Void
    ) throws(StoreError) {
        let assignments = ReportColumn.allCases.filter(\.isDerived).map { "\($0.name) = ?" }.joined(separator: ", ")
        var updates: [(id: String, record: ReportRecord)] = []
        var imagesOf: [(id: String, images: [ReportImage])] = []
        var sessions: [(id: String, bundleID: String?, session: String?)] = []
        var joinedPaths: [(id: String, path: StoredScreenPath)] = []
        for item in batch {
            let stored = item.record
            summary.examined += 1
            // A joined trail's screen path, for trails joined before paths were kept or since replayed otherwise.
            var changed = false
            if let joined = item.joined, let path = deriver.screenPath(ofJoinedTrail: joined, dictionaryID: item.dictionary),
                path != item.joinedPath
            {
                joinedPaths.append((stored.id, path))
                changed = true
            }
            switch deriver.derive(stored) {
            case .record(var again):
                // A trail joined later wins over what the payload gives, and names the group of a crash without frames.
                if let joined = item.joined {
                    again.signature = deriver.signature(of: again, joinedTrail: joined, dictionaryID: item.dictionary)
                }
                if again.derivedValues != stored.derivedValues {
                    updates.append((stored.id, again))
                    changed = true
                }
                imagesOf.append((stored.id, again.images))
                sessions.append((stored.id, again.bundleID, again.sessionID))
            case .failure(let why):
                summary.unreadable[stored.id] = why
            }
            if changed { summary.changed += 1 }
        }
        try write { db in
            for update in updates {
                try db.execute("UPDATE report SET \(assignments) WHERE id = ?", update.record.derivedValues + [.text(update.id)])
            }
            for item in imagesOf { try Self.replaceImages(of: item.id, with: item.images, in: db) }
            for item in sessions { try Self.replaceSession(of: item.id, bundleID: item.bundleID, session: item.session, in: db) }
            for joined in joinedPaths {
                try db.execute(
                    "UPDATE joinedTrail SET screenPath = ?, pathManifest = ? WHERE id = ?",
                    [.text(joined.path.screensJSON), .text(joined.path.manifest), .text(joined.id)])
            }
            try alsoIn(db)
        }
    }
}
