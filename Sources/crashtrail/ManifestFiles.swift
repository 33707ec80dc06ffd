import CrashtrailCore
import Foundation

/// Reads the manifests named by `--manifest` options: files, or folders whose `.yml`, `.yaml` and `.json`
/// files are read in name order.
enum ManifestFiles {
    /// The manifests at `paths`.
    /// - Throws: `ManifestError` for a missing or unreadable path, or a manifest that cannot work.
    static func load(_ paths: [String]) throws -> [Manifest] {
        var manifests: [Manifest] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ManifestError(.unreadable, source: path, "no such manifest file or folder; check the --manifest path")
            }
            guard isDirectory.boolValue else {
                manifests.append(try Manifest(contentsOfFile: path))
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { ["yml", "yaml", "json"].contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
            guard !names.isEmpty else {
                throw ManifestError(.unreadable, source: path, "the folder holds no .yml, .yaml or .json manifest")
            }
            for name in names {
                manifests.append(try Manifest(contentsOfFile: (path as NSString).appendingPathComponent(name)))
            }
        }
        return manifests
    }
}
