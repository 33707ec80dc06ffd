public import CrashtrailCore

/// What an app's screen shows, as its UI framework holds it: a tab bar with one stack per tab (or a single stack),
/// then the modals presented over it, bottom to top, each a stack of its own (root first).
///
/// The UIKit glue walks the view-controller tree into one (a `UITabBarController`'s `viewControllers` and
/// `selectedIndex`, each `UINavigationController`'s `viewControllers`, then the chain of `presentedViewController`s);
/// the SwiftUI glue builds one from typed paths (``init(tab:roots:paths:sheets:)``). ``navigationState(conditions:)``
/// turns it into the section-4 state the recorder takes (SPEC section 11).
///
/// An entry is nil for a screen that is no destination: an alert, an activity sheet, a container the app did not
/// map. Such entries are skipped: a stack keeps its destinations in order without them, and a modal that holds no
/// destination at all (an alert over the screen) is no modal of the state.
///
/// ```swift
/// let tree = ScreenTree(tab: 1, stacks: [[home], [marketplace, item], [myProfile]], modals: [[login]])
/// tree.navigationState(conditions: [])  // tab 1, the three stacks, the login modal
/// ```
public struct ScreenTree: Hashable, Sendable {
    /// The selected tab index, or nil when no tab bar is showing.
    public var tab: Int?
    /// One stack per tab, root first; a single stack when ``tab`` is nil.
    public var stacks: [[Destination?]]
    /// The modals presented over the stacks, bottom to top, each a stack, root first.
    public var modals: [[Destination?]]
    /// The app's values that did not encode as destinations (``init(tab:roots:paths:sheets:)``); a tree with any is
    /// not recorded (``ScreenSettler`` refuses it, naming them), since its state would lack those screens.
    public var unencodable: [DestinationError]

    /// A tree with a tab bar showing `tab`, or a single stack when `tab` is nil.
    /// - Parameters:
    ///   - tab: the selected tab index; nil when no tab bar is showing.
    ///   - stacks: one stack per tab (root first), or the single stack when `tab` is nil.
    ///   - modals: the modals presented over them, bottom to top, each a stack (root first).
    ///   - unencodable: values that did not encode as destinations, if the tree was built from typed values.
    public init(tab: Int?, stacks: [[Destination?]], modals: [[Destination?]] = [], unencodable: [DestinationError] = []) {
        self.tab = tab
        self.stacks = stacks
        self.modals = modals
        self.unencodable = unencodable
    }

    /// A tree without a tab bar: one stack (root first) and the modals over it.
    /// - Parameters:
    ///   - stack: the stack, root first.
    ///   - modals: the modals presented over it, bottom to top, each a stack (root first).
    public init(stack: [Destination?], modals: [[Destination?]] = []) {
        self.init(tab: nil, stacks: [stack], modals: modals)
    }

    /// The section-4 state this tree shows while `conditions` hold.
    ///
    /// Nil entries are skipped and modals left without a destination go (see ``ScreenTree``). No destination is
    /// pending: a screen shows no waiting destination, so a flow the app presents is recorded as presented. A tree
    /// that breaks the manifest (a tab stack with no destination, another tab count) gives a state the recorder
    /// refuses, saying why.
    /// - Parameter conditions: the conditions that hold (`signedIn` once the user signed in).
    /// - Returns: the state, with no pending destination.
    public func navigationState(conditions: Set<String>) -> NavigationState {
        NavigationState(
            tab: tab,
            stacks: stacks.map { $0.compactMap(\.self) },
            modals: modals.map { $0.compactMap(\.self) }.filter { !$0.isEmpty },
            conditions: conditions)
    }
}
