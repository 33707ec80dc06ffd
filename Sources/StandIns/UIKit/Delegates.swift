import Foundation

/// Stand-in for UIKit's `UINavigationControllerDelegate` (optional methods: see UIKitStandIn.swift).
@MainActor
public protocol UINavigationControllerDelegate: NSObjectProtocol {
    /// The navigation controller is about to show `viewController`.
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    /// The navigation controller showed `viewController`.
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
}

extension UINavigationControllerDelegate {
    /// Does nothing (UIKit: an optional method left out).
    public func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool
    ) {}
    /// Does nothing (UIKit: an optional method left out).
    public func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool
    ) {}
}

/// Stand-in for UIKit's `UITabBarControllerDelegate` (optional methods: see UIKitStandIn.swift).
@MainActor
public protocol UITabBarControllerDelegate: NSObjectProtocol {
    /// The user selected `viewController`'s tab.
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
    /// Does nothing (UIKit: an optional method left out).
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
}

/// Stand-in for UIKit's `UIAdaptivePresentationControllerDelegate` (optional methods: see UIKitStandIn.swift).
@MainActor
public protocol UIAdaptivePresentationControllerDelegate: NSObjectProtocol {
    /// The user began dismissing the presented view controller (pulling a sheet down).
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
    /// The user dismissed the presented view controller.
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
}

extension UIAdaptivePresentationControllerDelegate {
    /// Does nothing (UIKit: an optional method left out).
    public func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {}
    /// Does nothing (UIKit: an optional method left out).
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {}
}

/// Stand-in for UIKit's `UISplitViewControllerDelegate` (optional methods: see UIKitStandIn.swift).
///
/// Unlike the other delegate protocols, UIKit's refines no `NSObjectProtocol`.
@MainActor
public protocol UISplitViewControllerDelegate: AnyObject {
    /// Asked to show `vc` in the primary context; true when the delegate showed it, false to let the split view.
    func splitViewController(_ splitViewController: UISplitViewController, show vc: UIViewController, sender: Any?) -> Bool
    /// Asked to show `vc` in the secondary context; true when the delegate showed it, false to let the split view.
    func splitViewController(_ splitViewController: UISplitViewController, showDetail vc: UIViewController, sender: Any?) -> Bool
    /// The split view collapsed to one column (its secondary pushed on its primary).
    @available(iOS 14.0, *)
    func splitViewControllerDidCollapse(_ svc: UISplitViewController)
    /// The split view expanded to its columns.
    @available(iOS 14.0, *)
    func splitViewControllerDidExpand(_ svc: UISplitViewController)
}

extension UISplitViewControllerDelegate {
    /// Answers false: the split view shows `vc` itself (UIKit: an optional method left out).
    public func splitViewController(_ splitViewController: UISplitViewController, show vc: UIViewController, sender: Any?) -> Bool {
        false
    }
    /// Answers false: the split view shows `vc` itself (UIKit: an optional method left out).
    public func splitViewController(
        _ splitViewController: UISplitViewController, showDetail vc: UIViewController, sender: Any?
    ) -> Bool { false }
    /// Does nothing (UIKit: an optional method left out).
    @available(iOS 14.0, *)
    public func splitViewControllerDidCollapse(_ svc: UISplitViewController) {}
    /// Does nothing (UIKit: an optional method left out).
    @available(iOS 14.0, *)
    public func splitViewControllerDidExpand(_ svc: UISplitViewController) {}
}
