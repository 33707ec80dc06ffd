/// What the headless Navigator holds (SPEC section 4): the tab bar, per-tab stacks, the modal stack, the
/// satisfied conditions and a destination waiting for a condition.
public struct NavigationState: Hashable, Sendable {
    /// The selected tab index, or nil when no tab bar is showing.
    public var tab: Int?
    /// One stack per tab; a single stack when `tab` is nil.
    public var stacks: [[Destination]]
    /// Modal presentations, each a stack; the last is topmost.
    public var modals: [[Destination]]
    /// The satisfied conditions.
    public var conditions: Set<String>
    /// A destination waiting for a condition, with the op that asked for it.
    public var pending: PendingDestination?

    public init(
        tab: Int?, stacks: [[Destination]], modals: [[Destination]] = [], conditions: Set<String> = [],
        pending: PendingDestination? = nil
    ) {
        self.tab = tab
        self.stacks = stacks
        self.modals = modals
        self.conditions = conditions
        self.pending = pending
    }

    /// The stack navigation acts on: the last modal if any, else the selected tab's.
    public var topStack: [Destination] {
        if let last = modals.last { return last }
        let index = tab ?? 0
        return index < stacks.count ? stacks[index] : []
    }

    /// The screen on top of the top stack.
    public var topDestination: Destination? { topStack.last }

    /// The modal roots, bottom to top.
    public var modalRoots: [Destination?] { modals.map(\.first) }

    /// Conditions in canonical (code point) order.
    public var sortedConditions: [String] { conditions.sorted(by: CanonicalJSON.codePointPrecedes) }
}

/// A destination waiting for a condition; `mode` is the op that asked for it.
public struct PendingDestination: Hashable, Sendable {
    public var destination: Destination
    public var mode: RequestMode

    public init(_ destination: Destination, mode: RequestMode) {
        self.destination = destination
        self.mode = mode
    }
}

/// How a navigation request asks for its destination.
public enum RequestMode: String, Hashable, Sendable, CaseIterable {
    case push
    case present
    case open
}
