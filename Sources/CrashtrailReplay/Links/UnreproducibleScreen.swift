public import CrashtrailCore

/// A screen of the final state that no deep link can rebuild, and why (SPEC section 9, `unreproducible`).
public struct UnreproducibleScreen: Hashable, Sendable {
    /// Why a screen cannot be linked; `code` is the reason code the JSON output writes.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason code, such as `no-url`.
        public let code: String
        /// What the code means, as a sentence fragment for people.
        public let explanation: String

        public var description: String { code }

        /// The manifest does not know the screen.
        public static let unknownDestination = Reason(
            code: "unknown-destination", explanation: "the manifest does not know this screen")
        /// The screen has no deep link, or a value its template needs is missing or of the wrong kind.
        public static let noURL = Reason(
            code: "no-url", explanation: "the screen has no deep link, or its parameters do not fill its URL template")
        /// The screen's URL parses back to another destination.
        public static let urlNamesAnotherDestination = Reason(
            code: "url-names-another-destination",
            explanation: "the screen's URL opens another destination (a more literal template, or parameters the URL does not carry)")
        /// A modal's root is a screen whose presentation is not `modal`, so opening it would push it.
        public static let modalRootNotModal = Reason(
            code: "modal-root-not-modal",
            explanation: "the screen is the root of a modal, but its presentation is not modal, so its link would push it")
        /// A screen above a root whose presentation is `modal`, so opening it would present a new modal.
        public static let pushedModal = Reason(
            code: "pushed-modal",
            explanation: "the screen was pushed, but its presentation is modal, so its link would present it")
        /// A gate or tab root above a root, which its link would reset or select instead of pushing.
        public static let gateOrTabRootAboveRoot = Reason(
            code: "gate-or-tab-root-above-root",
            explanation: "the screen is a gate or tab root above a stack's root, which its link cannot push")
        /// A pending destination with no flow modal to wait on, or whose condition would be a precondition.
        public static let pendingFlowUnreachable = Reason(
            code: "pending-flow-unreachable",
            explanation: "the screen waits for a condition, but no flow modal it could wait on can be rebuilt")

        /// A value the screen's link needs is unknown: the trail was inferred from breadcrumbs, which name screens
        /// but not their values (SPEC section 15).
        public static let unknownValue = Reason(
            code: "unknown-value",
            explanation: "a value the screen's link needs is unknown (the trail was inferred from the crash reporter's breadcrumbs)")

        /// Every reason, in the order SPEC section 9 lists them, then the one of section 15.
        public static let all: [Reason] = [
            .unknownDestination, .noURL, .urlNamesAnotherDestination, .modalRootNotModal, .pushedModal,
            .gateOrTabRootAboveRoot, .pendingFlowUnreachable, .unknownValue,
        ]
    }

    /// The screen that cannot be linked.
    public var screen: Destination
    /// Why.
    public var reason: Reason
    /// Where it is in the final state: `stacks[1][2]`, `modals[0][0]` or `pending`.
    public var location: String

    /// An unlinkable screen.
    /// - Parameters:
    ///   - screen: the screen.
    ///   - reason: why it cannot be linked.
    ///   - location: where it sits in the final state.
    public init(screen: Destination, reason: Reason, location: String) {
        self.screen = screen
        self.reason = reason
        self.location = location
    }
}
