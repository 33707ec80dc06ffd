public import CrashtrailCore

/// A decoded trail together with its canonical JSON, which decoding had to build anyway to verify the checksum:
/// a caller that stores or prints the JSON takes it from here instead of writing it a second time.
public struct DecodedTrail: Sendable {
    /// The trail.
    public var trail: Trail
    /// `trail.canonicalJSON`, already built.
    public var canonicalJSON: [UInt8]
    /// The dictionary ID (eight hex digits) of the manifest the encoded trail was decoded with, read from its header
    /// while decoding; nil for trail JSON or a trail encoded without a manifest.
    public var dictionaryID: String?
    /// The trail's screen path as the decoder replayed it to rebuild the final state, when it did; nil otherwise.
    package var replayedScreens: ReplayedScreens?

    /// Pairs a trail with its canonical JSON; `canonicalJSON` must be `trail.canonicalJSON`.
    public init(trail: Trail, canonicalJSON: [UInt8]) {
        self.trail = trail
        self.canonicalJSON = canonicalJSON
    }

    /// Pairs a trail with its canonical JSON, writing the JSON.
    public init(_ trail: Trail) {
        self.init(trail: trail, canonicalJSON: trail.canonicalJSON)
    }
}

/// A trail's screen path (`ScreenPath.names(of:manifest:)`), seen by the decoder while it replayed the trail to
/// rebuild its final state, so that ingest need not replay it again.
package struct ReplayedScreens: Hashable, Sendable {
    /// The destination names on top of the screen after each step, from the top of the base; consecutive repeats
    /// collapsed.
    package var names: [String]
    /// The `Manifest.fingerprint` of the manifest the decoder replayed with: the names are the screen path only with it.
    package var manifest: String

    package init(names: [String], manifest: String) {
        self.names = names
        self.manifest = manifest
    }

    /// The names when `manifest` is the one that replayed them, else nil.
    package func names(replayedWith manifest: Manifest) -> [String]? {
        self.manifest == manifest.fingerprint ? names : nil
    }
}
