import Foundation
import GRDB

/// What a store file and a quarantine folder hold after an ingest, read independently of the collector
/// (plain SQL through GRDB), for comparing a run that was interrupted or raced with one that was not.
struct StoreSnapshot: Equatable {
    /// `id` → `sha256` of every stored report.
    var reports: [String: String]
    /// How many rows share each payload hash (each must be 1: stored exactly once).
    var copiesByHash: [String: Int]
    /// `PRAGMA integrity_check`'s rows (`["ok"]` when the file is sound).
    var integrity: [String]
    /// Quarantined file names (reason files included) and their bytes; hidden files are in `leftovers`.
    var quarantine: [String: Data]
    /// Hidden files in the quarantine folder: temporaries of an atomic write that a kill interrupted.
    var leftovers: [String]

    /// Reads the store at `store` and the quarantine folder.
    /// - Throws: GRDB's error when the file cannot be opened.
    static func read(store: URL, quarantine: URL) throws -> StoreSnapshot {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let (rows, integrity) = try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT id, sha256 FROM report"),
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
            )
        }
        var reports: [String: String] = [:]
        var copies: [String: Int] = [:]
        for row in rows {
            let id: String = row["id"]
            let hash: String = row["sha256"]
            reports[id] = hash
            copies[hash, default: 0] += 1
        }
        var files: [String: Data] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: quarantine.path)) ?? []
        for name in names where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: quarantine.appendingPathComponent(name))
        }
        return StoreSnapshot(
            reports: reports, copiesByHash: copies, integrity: integrity, quarantine: files,
            leftovers: names.filter { $0.hasPrefix(".") }.sorted())
    }

    /// Quarantined inputs, without their reason files.
    var quarantinedInputs: Set<String> {
        Set(quarantine.keys.filter { !$0.hasSuffix(".reason.txt") })
    }

    /// Payload hashes stored more than once.
    var duplicatedHashes: [String] {
        copiesByHash.filter { $0.value > 1 }.map(\.key).sorted()
    }
}
