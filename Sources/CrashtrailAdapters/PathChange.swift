/// How a typed `NavigationStack` path changed: the entries both keep, how many went from the top and which came.
///
/// For the SwiftUI glue, to tell what a change of path was (a pop after the system back button or a swipe, a push,
/// a jump) when it makes events or logs; the recorder itself computes steps from states, never from this.
///
/// ```swift
/// PathChange(from: [a, b, c], to: [a, b]).kind      // .pop
/// PathChange(from: [a, b], to: [a, d, e]).kind      // .replace: 1 popped, [d, e] pushed
/// ```
public struct PathChange<Element: Equatable>: Equatable {
    /// What kind of change it was.
    public enum Kind: Hashable, Sendable {
        /// The path is the same.
        case none
        /// Entries were added on top, none removed.
        case push
        /// Entries were removed from the top, none added.
        case pop
        /// Every entry was removed: the stack shows its root.
        case popToRoot
        /// Entries were removed from the top and others added.
        case replace
    }

    /// How many entries at the bottom both paths share.
    public let kept: Int
    /// How many entries were removed from the top of the old path.
    public let popped: Int
    /// The entries added on top, bottom first.
    public let pushed: [Element]

    /// The change from `old` to `new`, through their longest common prefix.
    /// - Parameters:
    ///   - old: the path before.
    ///   - new: the path after.
    public init(from old: [Element], to new: [Element]) {
        let kept = zip(old, new).prefix { $0 == $1 }.count
        self.kept = kept
        self.popped = old.count - kept
        self.pushed = Array(new.dropFirst(kept))
    }

    /// What kind of change it was: ``Kind/popToRoot`` when everything went and nothing came.
    public var kind: Kind {
        switch (popped, pushed.isEmpty) {
        case (0, true): .none
        case (0, false): .push
        case (_, true): kept == 0 ? .popToRoot : .pop
        case (_, false): .replace
        }
    }
}
