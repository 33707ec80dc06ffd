import CrashtrailCore
import CrashtrailEncoding

/// The collector decodes embedded and separate trails with the codec of CrashtrailEncoding.
extension TrailCodec: TrailDecoding {
    public func decodeTrail(bytes: [UInt8]) throws -> DecodedTrail {
        try decodeKeepingJSON(bytes)
    }

    public func decodeTrail(text: String) throws -> DecodedTrail {
        try decodeKeepingJSON(text: text)
    }

    public func decodeTrail(keys: [String: String]) throws -> DecodedTrail {
        try decodeKeepingJSON(keys: keys)
    }
}

extension TrailCodec {
    /// Whether one of its manifests names screens.
    public var namesScreens: Bool {
        dictionaries.contains { $0.manifest.destinations.contains { !$0.screens.isEmpty } }
    }

    /// The first manifest of the app that names screens.
    public func inferenceManifest(forApp bundleID: String) -> (manifest: Manifest, dictionaryID: String)? {
        dictionaries.first { $0.manifest.app == bundleID && $0.manifest.destinations.contains { !$0.screens.isEmpty } }
            .map { ($0.manifest, $0.idString) }
    }

    /// The manifest the dictionary ID names, else the first of the app.
    public func manifest(forApp bundleID: String, dictionaryID: String?) -> Manifest? {
        if let dictionaryID, let named = dictionaries.first(where: { $0.idString == dictionaryID }) { return named.manifest }
        return dictionaries.first { $0.manifest.app == bundleID }?.manifest
    }
}
