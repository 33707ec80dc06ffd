import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols

/// What adding manifests to the store did.
public struct ManifestAddition: Sendable {
    /// One manifest given.
    public struct Entry: Sendable {
        public let manifest: Manifest
        /// Its dictionary ID (16 hex digits).
        public let dictionaryID: String
        /// Whether the store did not keep it before.
        public let isNew: Bool
    }

    public var entries: [Entry] = []
    /// Stored reports whose trail waited for one of the new manifests and is decoded now.
    public var decodedLater = 0

    /// How many of the manifests were new to the store.
    public var added: Int { entries.filter(\.isNew).count }
}

extension TriageService {
    /// Keeps `loaded` in the store (by dictionary ID), then decodes the stored trails that waited for a new one.
    /// - Throws: `StoreError`.
    public func addManifests(_ loaded: [LoadedManifest]) throws -> ManifestAddition {
        var addition = ManifestAddition()
        for manifest in loaded {
            let isNew = try store.addManifest(manifest.manifest, text: manifest.text)
            addition.entries.append(
                .init(manifest: manifest.manifest, dictionaryID: ManifestDictionary(manifest: manifest.manifest).idString, isNew: isNew))
        }
        if addition.added > 0 { addition.decodedLater = try decodePendingTrails() }
        return addition
    }

    /// Decodes the stored trails whose manifest was missing when they were stored, with every manifest the store keeps.
    /// - Returns: how many reports have a trail now.
    /// - Throws: `StoreError`.
    public func decodePendingTrails() throws -> Int {
        try store.decodePendingTrails(with: try deriver())
    }

    /// Derives stored reports again as ingest derives new ones: trails decoded with the store's manifests, frames named
    /// with its debug files, crashes grouped by its rules and merges.
    /// - Throws: `StoreError` when the manifests or the grouping rules cannot be read.
    package func deriver() throws -> PayloadDeriver {
        PayloadDeriver(decoder: try codec(), symbolicator: try? Symbolicator(store: store), grouping: .fixed(try store.groupingRuleBook()))
    }

    /// A codec that knows `given` and, after them, the manifests the store keeps that `given` lacks.
    /// - Throws: `StoreError` when the stored manifests cannot be read.
    public func codec(given: [Manifest] = []) throws -> TrailCodec {
        var ids = Set(given.map { ManifestDictionary(manifest: $0).id })
        let stored = try store.storedManifests().filter { ids.insert(ManifestDictionary(manifest: $0).id).inserted }
        return TrailCodec(manifests: given + stored)
    }

    /// The manifests an operation replays with: `given`, else those the store keeps.
    /// - Parameters:
    ///   - given: the manifests a command was given.
    ///   - what: the command that needs them, for the error.
    /// - Returns: `given`'s manifests, or the store's.
    /// - Throws: `ManifestError` when none is given and the store keeps none.
    public func manifests(given: [LoadedManifest], for what: String) throws -> [Manifest] {
        if !given.isEmpty { return given.map(\.manifest) }
        let stored = try store.storedManifests()
        guard stored.isEmpty else { return stored }
        throw Self.noManifest(for: what, location: location)
    }

    static func noManifest(for what: String, location: StoreLocation) -> ManifestError {
        ManifestError(
            .unreadable, source: "--manifest",
            "\(what) needs the app's route manifest, and the store \(location) keeps none: pass --manifest FILE (or a folder), or store it once with crashtrail manifest add FILE"
        )
    }
}
