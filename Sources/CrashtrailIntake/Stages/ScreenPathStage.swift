import CrashtrailStore

/// The screen-path stage of the intake path: the trail's last screens as its manifest replays them, kept with the
/// report so `paths` counts them without replaying every trail (SPEC section 13).
enum ScreenPathStage {
    /// The stored screen path of `trail`, or nil when it has no trail or no manifest to replay it with.
    static func screenPath(of trail: DerivedTrail) -> StoredScreenPath? {
        guard let steps = trail.trail, let manifest = trail.manifest else { return nil }
        return StoredScreenPath(trail: steps, manifest: manifest, replayed: trail.replayedScreens)
    }
}
