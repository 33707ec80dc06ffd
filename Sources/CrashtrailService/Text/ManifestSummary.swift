import CrashtrailCore
import CrashtrailEncoding

/// `crashtrail manifest check`: what a manifest that works holds, as text and as JSON.
package enum ManifestSummary {
    /// What checking one manifest (or one of a folder's) gave.
    package struct Check: Sendable {
        /// The file, or the folder whose manifests could not be read.
        package let file: String
        /// The manifest, when it works.
        package let manifest: Manifest?
        /// Why it does not, else nil.
        package let error: String?

        /// The summary line for people, or nil when the manifest does not work.
        package var text: String? { manifest.map(ManifestSummary.text(of:)) }

        /// The summary object, or `file`, `ok` false and `error`.
        package var jsonValue: JSONValue {
            manifest.map(ManifestSummary.jsonValue(of:))
                ?? .object(["file": .string(file), "ok": .bool(false), "error": .string(error ?? "")])
        }
    }

    /// Checks the manifests at `files` (files or folders), each on its own: one that does not work does not stop the
    /// others.
    package static func check(_ files: [String]) -> [Check] {
        files.flatMap { file -> [Check] in
            do {
                return try LoadedManifest.load([file]).map { Check(file: $0.manifest.source, manifest: $0.manifest, error: nil) }
            } catch {
                return [Check(file: file, manifest: nil, error: "\(error)")]
            }
        }
    }

    /// `FILE: ok: APP, dictionary ID …, N destinations (M with a URL), …`.
    package static func text(of manifest: Manifest) -> String {
        let linked = manifest.destinations.filter { $0.route != nil }.count
        return "\(manifest.source): ok: \(manifest.app), dictionary ID \(ManifestDictionary(manifest: manifest).idString), "
            + "\(count(manifest.destinations.count, "destination")) (\(linked) with a URL), "
            + "\(count(manifest.conditions.count, "condition")), "
            + (manifest.hasTabs ? "tabs \(manifest.tabs.joined(separator: ", "))" : "root \(manifest.root ?? "")")
            + (screens(of: manifest).isEmpty
                ? "" : "\n  screens: " + screens(of: manifest).map { "\($0.screen) (\($0.destination))" }.joined(separator: ", "))
    }

    /// The screen names crash reporters' breadcrumbs may give, with the destination each names, in manifest order.
    package static func screens(of manifest: Manifest) -> [(screen: String, destination: String)] {
        manifest.destinations.flatMap { spec in spec.screens.map { (screen: $0, destination: spec.name) } }
    }

    /// `file`, `ok`, `app`, `dictionaryID`, `destinations`, `linked`, `conditions`, `tabs`, `root`, `screens` (each
    /// screen name to its destination).
    package static func jsonValue(of manifest: Manifest) -> JSONValue {
        .object([
            "file": .string(manifest.source), "ok": .bool(true), "app": .string(manifest.app),
            "dictionaryID": .string(ManifestDictionary(manifest: manifest).idString),
            "destinations": .int(Int64(manifest.destinations.count)),
            "linked": .int(Int64(manifest.destinations.filter { $0.route != nil }.count)),
            "conditions": .int(Int64(manifest.conditions.count)), "tabs": .array(manifest.tabs.map(JSONValue.string)),
            "root": manifest.root.map(JSONValue.string) ?? .null,
            "screens": .object(
                Dictionary(screens(of: manifest).map { ($0.screen, JSONValue.string($0.destination)) }, uniquingKeysWith: { a, _ in a })),
        ])
    }

    /// `1 destination`, `2 destinations`.
    static func count(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
}
