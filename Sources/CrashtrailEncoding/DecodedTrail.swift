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
