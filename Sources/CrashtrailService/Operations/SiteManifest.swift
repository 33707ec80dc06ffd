import CrashtrailCore
import CrashtrailReplay
import Foundation

/// What `crashtrail report --html DIR` wrote last time, kept in `DIR/.crashtrail-site.json`: each page's path with
/// the fingerprint of what made it, so the next run writes only the pages whose inputs changed and removes those of
/// reports that left the selection.
///
/// A report page's fingerprint covers its inputs (the report's ID and group, its stored trail, the manifest that
/// replays it and the renderer); the index's and a group page's cover their HTML, which is cheap to make again. A
/// missing, unreadable or other renderer's manifest means every page is written again.
struct SiteManifest {
    static let fileName = ".crashtrail-site.json"

    /// The fingerprint of each page, by its path in the site.
    var pages: [String: String] = [:]

    /// The manifest in `folder`, or an empty one.
    static func read(in folder: URL) -> SiteManifest {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(fileName).path),
            let value = try? JSONParser.parse(Array(data)), value["renderer"]?.stringValue == TriageSite.rendererFingerprint,
            case .object(let pages)? = value["pages"]
        else { return SiteManifest() }
        var manifest = SiteManifest()
        for (path, fingerprint) in pages { if let text = fingerprint.stringValue { manifest.pages[path] = text } }
        return manifest
    }

    /// Writes the manifest into `folder`, whole or not at all.
    /// - Throws: the file system's error.
    func write(in folder: URL) throws {
        let value = JSONValue.object([
            "renderer": .string(TriageSite.rendererFingerprint), "pages": .object(pages.mapValues(JSONValue.string)),
        ])
        try Data(CanonicalJSON.string(of: value).utf8).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
