public import CrashtrailAdapters
internal import CrashtrailCore

#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

extension ScreenTree {
    /// The tree the view controllers under `root` show (typically a window's `rootViewController`).
    ///
    /// The walk: a `UITabBarController` root gives a tab bar (its `selectedIndex`, one stack per element of its
    /// `viewControllers`); a `UINavigationController` gives a stack of its `viewControllers`; any other view controller
    /// a stack of itself. Then the chain of `presentedViewController`s from `root`, each a modal stack in the same way
    /// (a tab bar controller presented modally gives the stack of its selected tab). Each view controller is mapped
    /// with ``TrailScreen``; one that does not adopt it is a nil entry (skipped), and a destination that does not
    /// encode is named in `ScreenTree.unencodable`, so `ScreenSettler` refuses the tree rather than drop a screen.
    /// - Parameter root: the root view controller.
    @MainActor
    public init(walking root: UIViewController) {
        var unencodable: [DestinationError] = []
        var tab: Int?
        var stacks: [[Destination?]]
        if let tabBar = root as? UITabBarController {
            tab = tabBar.selectedIndex
            stacks = (tabBar.viewControllers ?? []).map { Self.stack(of: $0, failures: &unencodable) }
        } else {
            stacks = [Self.stack(of: root, failures: &unencodable)]
        }
        let modals = root.presentedChain.map { modal in
            if let tabBar = modal as? UITabBarController {
                let tabs = tabBar.viewControllers ?? []
                let selected = tabs.indices.contains(tabBar.selectedIndex) ? [tabs[tabBar.selectedIndex]] : []
                return selected.flatMap { Self.stack(of: $0, failures: &unencodable) }
            }
            return Self.stack(of: modal, failures: &unencodable)
        }
        self.init(tab: tab, stacks: stacks, modals: modals, unencodable: unencodable)
    }

    /// The stack `viewController` shows: a navigation controller's view controllers, root first, or itself.
    @MainActor
    private static func stack(of viewController: UIViewController, failures: inout [DestinationError]) -> [Destination?] {
        let controllers = (viewController as? UINavigationController)?.viewControllers ?? [viewController]
        return controllers.map { destination(of: $0, failures: &failures) }
    }

    /// `viewController`'s destination, nil when it is no ``TrailScreen``, shows none, or does not encode (then named in
    /// `failures`).
    @MainActor
    private static func destination(of viewController: UIViewController, failures: inout [DestinationError]) -> Destination? {
        guard let screen = viewController as? any TrailScreen, let value = screen.trailDestination else { return nil }
        do throws(DestinationError) {
            return try Destination(encoding: value)
        } catch {
            failures.append(error)
            return nil
        }
    }
}
