import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReplay

/// A replay and what a person should know about it.
public struct ReplayOutcome: Sendable {
    public let replay: Replay
    /// Warnings for people: the manifest chosen, a manifest version other than the trail's.
    public let warnings: [String]
}

/// `crashtrail replay REPORT`: a trail file, a payload file or a stored report, replayed with its app's manifest.
public enum ReplayOperation {
    /// Resolves `report` (``ReplaySource``), chooses its app's manifest among `given` (else those the store keeps)
    /// and replays it.
    /// - Parameters:
    ///   - report: a trail file, a payload file, or a stored report ID (or a unique prefix).
    ///   - given: the manifests given; none means those the store keeps.
    ///   - location: the store that holds stored reports and manifests.
    ///   - force: replay with another app's manifest rather than refuse.
    /// - Returns: the replay and the warnings for people.
    /// - Throws: ``ReplayError``, `ManifestError`, `ManifestSelectionError` or `StoreError`.
    public static func replay(_ report: String, manifests given: [LoadedManifest], location: StoreLocation, force: Bool) throws
        -> ReplayOutcome
    {
        // The store is opened once, and only when the manifests or the report are in it.
        let opener = StoreOpener(location)
        let manifests: [Manifest]
        if !given.isEmpty {
            manifests = given.map(\.manifest)
        } else if location.mayExist {
            manifests = try TriageService(store: try opener.store(), location: location).manifests(given: [], for: "replay")
        } else {
            throw TriageService.noManifest(for: "replay", location: location)
        }
        return try replay(report, manifests: manifests, opener: opener, force: force)
    }

    /// Replays the stored report `id` (or a unique prefix) of `service`'s store, with the manifests the store keeps.
    ///
    /// Only the store is looked in, never a file of that name: a service passes IDs its clients sent.
    /// - Throws: ``ReplayError``, `ManifestError`, `ManifestSelectionError` or `StoreError`.
    public static func replay(storedReport id: String, service: TriageService) throws -> ReplayOutcome {
        let manifests = try service.manifests(given: [], for: "replay")
        return try replay(
            ReplaySource.fromStore(try service.store.record(matchingPrefix: id, project: service.project)), manifests: manifests,
            force: false)
    }

    private static func replay(_ report: String, manifests: [Manifest], opener: StoreOpener, force: Bool) throws -> ReplayOutcome {
        try replay(try ReplaySource.resolve(report, manifests: manifests, opener: opener), manifests: manifests, force: force)
    }

    private static func replay(_ source: ReplaySource, manifests: [Manifest], force: Bool) throws -> ReplayOutcome {
        let app = source.trail.app.bundleID
        let selection = try ManifestSelection(choosingFrom: manifests, forApp: app)
        guard selection.manifest.app == app || force else {
            throw ReplayError(
                .otherApp,
                "the trail is from \(app), but the manifest \(selection.manifest.source) is for \(selection.manifest.app); "
                    + "pass the manifest of \(app) with --manifest, or add --force to replay with this one anyway")
        }
        var warnings = selection.warnings
        if source.inferred {
            warnings.append(
                "note: no trail was recorded for this crash; this one is inferred from the crash reporter's breadcrumbs, which name "
                    + "the screens but not their values: unknown values show as unknown, and a screen whose link needs one is not linked")
        }
        let chosen = ManifestDictionary(manifest: selection.manifest).idString
        if let recorded = source.recordedDictionaryID, recorded != chosen {
            let known = manifests.first { ManifestDictionary(manifest: $0).idString == recorded }
            warnings.append(
                "warning: the trail was recorded with another version of the manifest (dictionary ID \(recorded)) than "
                    + "\(selection.manifest.source) (\(chosen)); routes may differ, so the replay and its links may not match the app"
                    + (known.map { "; \($0.source) is that version" } ?? ""))
        }
        return ReplayOutcome(replay: Replayer(manifest: selection.manifest).replay(source.trail, report: source.name), warnings: warnings)
    }
}
