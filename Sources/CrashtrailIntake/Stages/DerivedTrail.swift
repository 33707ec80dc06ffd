import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReports
import CrashtrailStore

/// What the trail stage made of a payload's trail: the one it carried, decoded; one inferred from its breadcrumbs; or
/// none.
struct DerivedTrail {
    /// Where the trail came from, its steps, or why it could not be decoded.
    var info = TrailInfo.missing
    /// The trail's canonical JSON, as the store keeps it.
    var json: String?
    /// The dictionary ID of the manifest it was encoded or inferred with.
    var dictionaryID: String?
    /// The trail itself.
    var trail: Trail?
    /// The manifest the trail replays with: the one it was inferred or decoded with, else its app's.
    var manifest: Manifest?
    /// The screens the decoder already replayed, when it did.
    var replayedScreens: ReplayedScreens?

    /// No trail.
    static let none = DerivedTrail()

    /// The screen on top at the crash by the trail, which names the group of a crash without frames.
    func crashScreen() -> String? {
        trail?.crashScreen(manifest: manifest)
    }
}
