/// Whether a report has a trail and where it came from.
public struct TrailInfo: Hashable, Sendable {
    /// Where the trail came from.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// Inside the payload itself.
        case embedded
        /// From a separate trail file joined by bundle ID, pid and launch time.
        case joined
        /// None yet; one may arrive later.
        case missing
        /// The payload carried one that could not be decoded; `error` says why.
        case undecodable

        /// Whether the report has a decoded trail (`embedded` or `joined`).
        public var hasTrail: Bool { self == .embedded || self == .joined }
    }

    public var source: Source
    /// The trail's step count, when it has one.
    public var steps: Int?
    /// Why the trail could not be decoded, else nil.
    public var error: String?

    public init(source: Source, steps: Int? = nil, error: String? = nil) {
        self.source = source
        self.steps = steps
        self.error = error
    }

    /// No trail.
    public static let missing = TrailInfo(source: .missing)
}
