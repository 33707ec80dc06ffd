import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReports

/// The manifests a store keeps (`manifest` table, migration `v4: manifests`): every manifest `ingest --manifest` or
/// `crashtrail manifest add` saw, by dictionary ID, so commands need no `--manifest` for stored reports and trails
/// that arrived before their manifest are decoded once it comes.
extension ReportStore {
    /// Keeps a manifest, by its dictionary ID; the same ID again changes nothing.
    /// - Parameters:
    ///   - manifest: the manifest, read from `text`.
    ///   - text: its YAML or JSON text, kept to read it again.
    /// - Returns: whether it was new to the store.
    /// - Throws: `StoreError` (`database`).
    @discardableResult
    public func addManifest(_ manifest: Manifest, text: String) throws(StoreError) -> Bool {
        let id = ManifestDictionary(manifest: manifest).idString
        return try write { db in
            try db.execute(
                "INSERT INTO manifest (dictionaryID, app, source, text) VALUES (?, ?, ?, ?) ON CONFLICT (dictionaryID) DO NOTHING",
                [.text(id), .text(manifest.app), .text(manifest.source), .text(text)]) > 0
        }
    }

    /// Every stored manifest, oldest first.
    /// - Throws: `StoreError`: `database`, or `damaged` naming a stored manifest that no longer reads.
    public func storedManifests() throws(StoreError) -> [Manifest] {
        let rows = try read { db in try db.rows("SELECT dictionaryID, source, text FROM manifest ORDER BY \(db.dialect.manifestOrder)", [])
        }
        var manifests: [Manifest] = []
        for row in rows {
            let source = row.string("source") ?? ""
            let text = row.string("text") ?? ""
            do {
                manifests.append(try Manifest(yaml: text, source: source))
            } catch {
                let id = row.string("dictionaryID") ?? "?"
                throw StoreError(
                    .database,
                    "the stored manifest \(id) (from \(source)) no longer reads: \(error); add it again with crashtrail manifest add")
            }
        }
        return manifests
    }

    /// Decodes again every stored trail that could not be decoded when its report was stored (a manifest it needs was
    /// missing), deriving the report again from its own payload with `deriver`; the payload is never changed.
    /// - Returns: how many reports have a trail now.
    /// - Throws: `StoreError` (`database`).
    package func decodePendingTrails(with deriver: any ReportDeriving) throws(StoreError) -> Int {
        let pending = try read { db in
            try db.strings("SELECT id FROM report WHERE trailSource = ? ORDER BY id", [.text(TrailInfo.Source.undecodable.rawValue)])
        }
        var decoded = 0
        for id in pending {
            guard let stored = try record(id: id), case .record(let again) = deriver.derive(stored),
                again.trailSource == .embedded, let trail = again.trail
            else { continue }
            try write { db in
                try db.execute(
                    """
                    UPDATE report SET trailSource = ?, trailSteps = ?, trailError = NULL, trail = ?, trailDictionary = ?,
                        screenPath = ?, pathManifest = ?, signature = ?
                    WHERE id = ? AND trailSource = ?
                    """,
                    [
                        .text(again.trailSource.rawValue), StoreValue(again.trailSteps), .text(trail), StoreValue(again.trailDictionary),
                        StoreValue(again.screenPath), StoreValue(again.pathManifest), .text(again.signature), .text(id),
                        .text(TrailInfo.Source.undecodable.rawValue),
                    ])
            }
            decoded += 1
        }
        return decoded
    }
}
