/// Something a step asked for that the navigation rules could not do as asked (SPEC section 4).
///
/// Anomalies are
/// reported, never thrown: replay goes on after any of them.
public struct NavigationAnomaly: Hashable, Sendable {
    /// The kinds SPEC section 4 names.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case popAtRoot = "pop-at-root"
        case dismissWithoutModal = "dismiss-without-modal"
        case invalidTab = "invalid-tab"
        case completeWithoutFlow = "complete-without-flow"
        case transitionCollision = "transition-collision"
        case unknownDestination = "unknown-destination"
        case unknownURL = "unknown-url"
    }

    /// The step's index, counted from 0 within the kept steps.
    public var step: Int
    public var kind: Kind
    /// What happened, as a sentence.
    public var detail: String
    /// For a collision, the step whose transition was running.
    public var after: Int?

    public init(step: Int, kind: Kind, detail: String, after: Int? = nil) {
        self.step = step
        self.kind = kind
        self.detail = detail
        self.after = after
    }
}
