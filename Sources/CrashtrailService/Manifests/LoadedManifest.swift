import CrashtrailCore
import Foundation

/// A manifest and the text it was read from (which the store keeps).
public struct LoadedManifest: Sendable {
    public let manifest: Manifest
    public let text: String

    /// Reads the manifests at `paths`: files, or folders whose `.yml`, `.yaml` and `.json` files are read in name
    /// order.
    /// - Throws: `ManifestError` for a missing or unreadable path, or a manifest that cannot work.
    public static func load(_ paths: [String]) throws -> [LoadedManifest] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ManifestError(.unreadable, source: path, "cannot read the manifest: no such file or folder; check the path")
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
            return LoadedManifest(manifest: try Manifest(yaml: text, source: file), text: text)
        }
    }

    /// The one manifest at `paths`, for commands that record one app's trail.
    /// - Throws: `ManifestError` when the paths hold none or several manifests, or one cannot be read.
    public static func loadOne(_ paths: [String]) throws -> Manifest {
        let loaded = try load(paths)
        guard loaded.count == 1 else {
            let names = loaded.map(\.manifest.source).joined(separator: ", ")
            throw ManifestError(
                .unreadable, source: "--manifest",
                loaded.isEmpty
                    ? "this command needs the app's route manifest: pass --manifest FILE"
                    : "this command records one app's trail, but \(loaded.count) manifests were given (\(names)); pass the one manifest")
        }
        return loaded[0].manifest
    }
}
