import CrashtrailCore
import CrashtrailEncoding
import CrashtrailStore

extension StoredScreenPath {
    /// The stored path of `trail` with `manifest`: the screens its decoder saw while replaying it, when the decoder
    /// replayed it with this manifest, else a replay of its own.
    init(trail: Trail, manifest: Manifest, replayed: ReplayedScreens?) {
        if let names = replayed?.names(replayedWith: manifest) {
            self.init(screens: ScreenPath.lastScreens(names, count: ScreenPath.storedCount), manifest: manifest.fingerprint)
        } else {
            self.init(trail: trail, manifest: manifest)
        }
    }
}
