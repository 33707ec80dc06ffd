import CrashtrailCore

/// The last screens of a report's trail as a manifest replays them (`ScreenPath`), kept with the report when its
/// trail is attached so `paths` and the site read them instead of replaying every trail.
public struct StoredScreenPath: Hashable, Sendable {
    /// Up to `ScreenPath/storedCount` last screens, ending with the screen at the crash.
    public var screens: [String]
    /// The `Manifest.fingerprint` of the manifest that replayed them: a reader with another manifest replays.
    public var manifest: String

    public init(screens: [String], manifest: String) {
        self.screens = screens
        self.manifest = manifest
    }

    /// The stored path of `trail` replayed with `manifest`.
    public init(trail: Trail, manifest: Manifest) {
        self.init(
            screens: ScreenPath.lastScreens(ScreenPath.names(of: trail, manifest: manifest), count: ScreenPath.storedCount),
            manifest: manifest.fingerprint)
    }

    /// The last `count` screens, when `manifest` is the one that replayed them and `count` is at most
    /// `ScreenPath/storedCount`; nil when the trail must be replayed instead.
    public func lastScreens(_ count: Int, replayedWith manifest: Manifest) -> [String]? {
        guard self.manifest == manifest.fingerprint, count <= ScreenPath.storedCount else { return nil }
        return ScreenPath.lastScreens(screens, count: count)
    }

    /// The screens as a column holds them: canonical JSON, an array of names.
    public var screensJSON: String { CanonicalJSON.string(of: .array(screens.map(JSONValue.string))) }

    /// A path from its columns; nil when either is missing or the screens do not read as an array of names.
    public init?(screensJSON: String?, manifest: String?) {
        guard let screensJSON, let manifest, case .array(let values)? = try? JSONParser.parse(screensJSON) else { return nil }
        let names = values.compactMap(\.stringValue)
        guard names.count == values.count else { return nil }
        self.init(screens: names, manifest: manifest)
    }
}
