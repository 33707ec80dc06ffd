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
        /// None was recorded; this one was inferred from the reporter's breadcrumbs (SPEC section 15). A recorded trail
        /// that arrives later replaces it.
        case inferred

        /// Whether the report has a trail to replay (`embedded`, `joined` or `inferred`).
        public var hasTrail: Bool { self == .embedded || self == .joined || self == .inferred }
        /// Whether the app recorded the trail (`embedded` or `joined`), rather than ingest inferring it.
        public var isRecorded: Bool { self == .embedded || self == .joined }
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
