import CrashtrailCollector
import CrashtrailCore
import CrashtrailReplay
import Foundation

/// Reads the manifests named by `--manifest` options: files, or folders whose `.yml`, `.yaml` and `.json`
/// files are read in name order; without any, the manifests the store keeps.
enum ManifestFiles {
    /// A manifest and the text it was read from (which the store keeps).
    struct Loaded {
        let manifest: Manifest
        let text: String
    }

    /// The manifests at `paths`.
    /// - Throws: `ManifestError` for a missing or unreadable path, or a manifest that cannot work.
    static func load(_ paths: [String]) throws -> [Manifest] {
        try loadWithText(paths).map(\.manifest)
    }

    /// The manifests at `paths`, with their text.
    /// - Throws: `ManifestError` for a missing or unreadable path, or a manifest that cannot work.
    static func loadWithText(_ paths: [String]) throws -> [Loaded] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ManifestError(.unreadable, source: path, "no such manifest file or folder; check the --manifest path")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { ["yml", "yaml", "json"].contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            guard !names.isEmpty else {
                throw ManifestError(.unreadable, source: path, "the folder holds no .yml, .yaml or .json manifest")
            }
            files += names.map { (path as NSString).appendingPathComponent($0) }
        }
        return try files.map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ManifestError(.unreadable, source: file, "cannot read the manifest file; check its permissions")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ManifestError(.unreadable, source: file, "the manifest is not UTF-8 text")
            }
            return Loaded(manifest: try Manifest(yaml: text, source: file), text: text)
        }
    }

    /// The manifests a command uses: those `--manifest` names, else those the store at `storePath` keeps.
    /// - Parameter what: what the command needs them for, for the error.
    /// - Throws: `ManifestError` when none is given and the store keeps none (or does not exist).
    static func given(_ paths: [String], orStoredIn storePath: String, for what: String) throws -> [Manifest] {
        if !paths.isEmpty { return try load(paths) }
        if StoreOptions.mayExist(storePath) {
            let stored = try StoreOptions.open(storePath, creating: false).storedManifests()
            if !stored.isEmpty { return stored }
        }
        throw ManifestError(
            .unreadable, source: "--manifest",
            "\(what) needs the app's route manifest, and the store \(StoreOptions.displayName(storePath)) keeps none: pass --manifest FILE (or a folder), or store it once with crashtrail manifest add FILE")
    }
}

/// The manifest of each app, chosen once per app from the manifests a command was given (as `ManifestSelection`
/// chooses), for commands that replay many stored trails.
struct ManifestsByApp {
    let manifests: [Manifest]
    private var chosen: [String: Manifest?] = [:]
    /// Warnings of the choices made, in the order they were made.
    private(set) var warnings: [String] = []

    init(_ manifests: [Manifest]) {
        self.manifests = manifests
    }

    /// The manifest for `app`, or nil when none of the given manifests can serve it.
    mutating func manifest(for app: String) -> Manifest? {
        if let known = chosen[app] { return known }
        let selection = try? ManifestSelection(choosingFrom: manifests, forApp: app)
        chosen[app] = selection?.manifest
        warnings += selection?.warnings ?? []
        return selection?.manifest
    }
}
