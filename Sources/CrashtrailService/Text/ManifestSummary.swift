import CrashtrailCore
import CrashtrailEncoding

/// `crashtrail manifest check`: what a manifest that works holds, as text and as JSON.
public enum ManifestSummary {
    /// `FILE: ok: APP, dictionary ID …, N destinations (M with a URL), …`.
    public static func text(of manifest: Manifest) -> String {
        let linked = manifest.destinations.filter { $0.route != nil }.count
        return "\(manifest.source): ok: \(manifest.app), dictionary ID \(ManifestDictionary(manifest: manifest).idString), "
            + "\(count(manifest.destinations.count, "destination")) (\(linked) with a URL), "
            + "\(count(manifest.conditions.count, "condition")), "
            + (manifest.hasTabs ? "tabs \(manifest.tabs.joined(separator: ", "))" : "root \(manifest.root ?? "")")
    }

    /// `file`, `ok`, `app`, `dictionaryID`, `destinations`, `linked`, `conditions`, `tabs`, `root`.
    public static func jsonValue(of manifest: Manifest) -> JSONValue {
        .object([
            "file": .string(manifest.source), "ok": .bool(true), "app": .string(manifest.app),
            "dictionaryID": .string(ManifestDictionary(manifest: manifest).idString),
            "destinations": .int(Int64(manifest.destinations.count)),
            "linked": .int(Int64(manifest.destinations.filter { $0.route != nil }.count)),
            "conditions": .int(Int64(manifest.conditions.count)), "tabs": .array(manifest.tabs.map(JSONValue.string)),
            "root": manifest.root.map(JSONValue.string) ?? .null,
        ])
    }

    /// `1 destination`, `2 destinations`.
    static func count(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
}
