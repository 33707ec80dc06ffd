public import CrashtrailAdapters
internal import CrashtrailCore
internal import Foundation

#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

extension ScreenTree {
    /// The tree the view controllers under `root` show (typically a window's `rootViewController`).
    ///
    /// The walk:
    /// - A `UITabBarController` root gives a tab bar: its `selectedIndex`, one stack per element of its
    ///   `viewControllers`. A tab the bar has no room for is shown in the More tab: while it is selected, its screens
    ///   are those of `moreNavigationController` above the More list. While the More list itself shows (UIKit's
    ///   `selectedIndex` is `NSNotFound`), no tab is: the tree's `tab` is nil, and ``ViewControllerTrail`` reports no
    ///   such tree, since no state of the manifest is a list of tabs.
    /// - A root that is a container of one child (an app's own root controller holding its tab bar controller) is
    ///   walked as that child.
    /// - Any other root gives a single stack.
    /// - Then the chain of `presentedViewController`s from `root`, each a modal stack.
    ///
    /// A stack is what a view controller shows, root first:
    /// - a ``TrailScreen`` is its destination (its children are parts of it, not screens of their own);
    /// - a `UINavigationController` shows its `viewControllers`, each walked the same way;
    /// - a `UISplitViewController` shows its columns' view controllers, primary first, as one stack (the detail is
    ///   above the list it was opened from, as a collapsed split view shows it);
    /// - a `UITabBarController` that is not the root (a presented one) shows its selected tab;
    /// - a ``TrailContainer`` shows its `shownChildren`, and any other container its `children`;
    /// - any other view controller is a nil entry (skipped).
    ///
    /// A destination that does not encode is named in `ScreenTree.unencodable`, so `ScreenSettler` refuses the tree
    /// rather than drop a screen.
    /// - Parameter root: the root view controller.
    @MainActor
    public init(walking root: UIViewController) {
        var walk = ViewControllerWalk()
        var tab: Int?
        var stacks: [[Destination?]]
        if let tabBar = ViewControllerWalk.soleContent(of: root) as? UITabBarController {
            (tab, stacks) = walk.tabs(of: tabBar)
        } else {
            stacks = [walk.stack(of: root)]
        }
        let modals = root.presentedChain.map { walk.stack(of: $0) }
        self.init(tab: tab, stacks: stacks, modals: modals, unencodable: walk.failures)
    }
}

/// One walk of the view controllers: the stacks they show and the destinations that did not encode.
@MainActor
struct ViewControllerWalk {
    /// The destinations that did not encode, in the order met.
    private(set) var failures: [DestinationError] = []

    /// How deep containers may nest: UIKit's trees are shallow; the limit guards against a cycle a double could make.
    private static let depthLimit = 32

    /// What `root` shows when it is a container of one child and no screen itself, followed down; else `root`.
    static func soleContent(of root: UIViewController) -> UIViewController {
        var shown = root
        for _ in 0..<depthLimit {
            guard !(shown is any TrailScreen), !(shown is UINavigationController), !(shown is UISplitViewController),
                !(shown is UITabBarController)
            else { break }
            let children = (shown as? any TrailContainer)?.shownChildren ?? shown.children
            guard children.count == 1 else { break }
            shown = children[0]
        }
        return shown
    }

    /// The selected tab and the stacks of a root tab bar controller's tabs, the More tab's screens in the tab they
    /// belong to.
    ///
    /// UIKit moves a tab's screens into the More navigation controller while the More tab shows them: they belong to
    /// the selected tab when it is one of the More tab's, else to the one tab of the More tab left without screens of
    /// its own (the one last shown there).
    mutating func tabs(of tabBar: UITabBarController) -> (tab: Int?, stacks: [[Destination?]]) {
        let tabs = tabBar.viewControllers ?? []
        var stacks = tabs.map { stack(of: $0) }
        let more = MoreTab(tabBar)
        let shown = more.shownTab
        let screens = tabBar.moreNavigationController.viewControllers.dropFirst().flatMap { stack(of: $0) }
        if screens.contains(where: { $0 != nil }) {
            let emptied = tabs.indices.filter { more.isInMore(tabs[$0]) && !stacks[$0].contains { $0 != nil } }
            if let shown, shown.inMore {
                stacks[shown.index] = screens
            } else if emptied.count == 1 {
                stacks[emptied[0]] = screens
            }
        }
        return (shown?.index, stacks)
    }

    /// The stack `viewController` shows, root first (see ``ScreenTree/init(walking:)``).
    mutating func stack(of viewController: UIViewController, depth: Int = 0) -> [Destination?] {
        guard depth < Self.depthLimit else { return [] }
        if let screen = viewController as? any TrailScreen { return [destination(of: screen)] }
        if let navigation = viewController as? UINavigationController {
            return navigation.viewControllers.flatMap { stack(of: $0, depth: depth + 1) }
        }
        if let split = viewController as? UISplitViewController {
            return split.viewControllers.flatMap { stack(of: $0, depth: depth + 1) }
        }
        if let tabBar = viewController as? UITabBarController {
            let tabs = tabBar.viewControllers ?? []
            guard tabs.indices.contains(tabBar.selectedIndex) else { return [nil] }
            return stack(of: tabs[tabBar.selectedIndex], depth: depth + 1)
        }
        let children = (viewController as? any TrailContainer)?.shownChildren ?? viewController.children
        if children.isEmpty { return [nil] }
        return children.flatMap { stack(of: $0, depth: depth + 1) }
    }

    /// `screen`'s destination, nil when it shows none or does not encode (then named in ``failures``).
    private mutating func destination(of screen: any TrailScreen) -> Destination? {
        guard let value = screen.trailDestination else { return nil }
        do throws(DestinationError) {
            return try Destination(encoding: value)
        } catch {
            failures.append(error)
            return nil
        }
    }
}

/// Which tab a tab bar controller shows, and whether it shows it in its More tab.
@MainActor
struct MoreTab {
    let tabBar: UITabBarController

    init(_ tabBar: UITabBarController) {
        self.tabBar = tabBar
    }

    /// The tab shown, or nil while the More list itself shows (no tab).
    ///
    /// A tab is in the More tab when its `tabBarItem` is not one of the bar's `items`. With `selectedIndex` a tab's
    /// index, that tab shows; with `NSNotFound` (the More navigation controller selected), the tab whose view
    /// controller is above the More list shows, if one is.
    var shownTab: (index: Int, inMore: Bool)? {
        let tabs = tabBar.viewControllers ?? []
        if tabs.indices.contains(tabBar.selectedIndex) {
            let index = tabBar.selectedIndex
            return (index, isInMore(tabs[index]))
        }
        let more = tabBar.moreNavigationController.viewControllers
        guard more.count > 1 else { return nil }
        let picked = more[1]
        let index = tabs.firstIndex { tab in
            tab === picked || (tab as? UINavigationController)?.viewControllers.first === picked
        }
        return index.map { ($0, true) }
    }

    /// Whether `tab` is one of those the bar has no room for.
    func isInMore(_ tab: UIViewController) -> Bool {
        guard let items = tabBar.tabBar.items else { return false }
        return !items.contains { $0 === tab.tabBarItem }
    }
}
