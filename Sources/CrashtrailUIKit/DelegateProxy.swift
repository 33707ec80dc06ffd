internal import Foundation

#if canImport(UIKit)
internal import UIKit
#else
internal import UIKitStandIn
#endif

/// A container's delegate while the glue observes it: each call reports to the trail, then goes on to the delegate the
/// app set (``appDelegate``), if any.
///
/// On Apple platforms a call the glue does not implement (a custom transition's animator, `shouldSelect`, a refused
/// dismissal) goes straight to the app's delegate: the proxy answers `responds(to:)` for it and forwards it, as an
/// Objective-C proxy does. Where there is no Objective-C runtime, the stand-ins' protocols have only the methods the
/// glue implements.
@MainActor
class DelegateProxy: NSObject {
    /// The trail the calls report to.
    weak var trail: ViewControllerTrail?

    /// The delegate the app set; UIKit reads the proxy's answers to `responds(to:)` on the main thread only.
    nonisolated(unsafe) weak var appDelegate: (any NSObjectProtocol)?

    init(trail: ViewControllerTrail) {
        self.trail = trail
        super.init()
    }

    #if canImport(ObjectiveC)
    nonisolated override func responds(to aSelector: Selector!) -> Bool {
        super.responds(to: aSelector) || appDelegate?.responds(to: aSelector) == true
    }

    nonisolated override func forwardingTarget(for aSelector: Selector!) -> Any? {
        if let appDelegate, appDelegate.responds(to: aSelector) { return appDelegate }
        return super.forwardingTarget(for: aSelector)
    }
    #endif
}

/// The delegate of an observed navigation controller.
final class NavigationDelegateProxy: DelegateProxy, UINavigationControllerDelegate {
    private var forwardee: (any UINavigationControllerDelegate)? { appDelegate as? any UINavigationControllerDelegate }

    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {
        trail?.navigationController(navigationController, willShow: viewController, animated: animated)
        #if canImport(UIKit)
        forwardee?.navigationController?(navigationController, willShow: viewController, animated: animated)
        #else
        forwardee?.navigationController(navigationController, willShow: viewController, animated: animated)
        #endif
    }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        trail?.navigationController(navigationController, didShow: viewController, animated: animated)
        #if canImport(UIKit)
        forwardee?.navigationController?(navigationController, didShow: viewController, animated: animated)
        #else
        forwardee?.navigationController(navigationController, didShow: viewController, animated: animated)
        #endif
    }
}

/// The delegate of an observed tab bar controller.
final class TabBarDelegateProxy: DelegateProxy, UITabBarControllerDelegate {
    private var forwardee: (any UITabBarControllerDelegate)? { appDelegate as? any UITabBarControllerDelegate }

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        trail?.tabBarController(tabBarController, didSelect: viewController)
        #if canImport(UIKit)
        forwardee?.tabBarController?(tabBarController, didSelect: viewController)
        #else
        forwardee?.tabBarController(tabBarController, didSelect: viewController)
        #endif
    }
}

/// The delegate of an observed presentation controller.
final class PresentationDelegateProxy: DelegateProxy, UIAdaptivePresentationControllerDelegate {
    private var forwardee: (any UIAdaptivePresentationControllerDelegate)? {
        appDelegate as? any UIAdaptivePresentationControllerDelegate
    }

    func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {
        trail?.presentationControllerWillDismiss(presentationController)
        #if canImport(UIKit)
        forwardee?.presentationControllerWillDismiss?(presentationController)
        #else
        forwardee?.presentationControllerWillDismiss(presentationController)
        #endif
    }

    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        trail?.presentationControllerDidDismiss(presentationController)
        #if canImport(UIKit)
        forwardee?.presentationControllerDidDismiss?(presentationController)
        #else
        forwardee?.presentationControllerDidDismiss(presentationController)
        #endif
    }
}

/// The delegate of an observed split view controller: the app's delegate is asked first whether it shows a view
/// controller itself; either way the screen is reported once it shows.
final class SplitViewDelegateProxy: DelegateProxy, UISplitViewControllerDelegate {
    private var forwardee: (any UISplitViewControllerDelegate)? { appDelegate as? any UISplitViewControllerDelegate }

    func splitViewController(_ splitViewController: UISplitViewController, show vc: UIViewController, sender: Any?) -> Bool {
        #if canImport(UIKit)
        let handled = forwardee?.splitViewController?(splitViewController, show: vc, sender: sender) ?? false
        #else
        let handled = forwardee?.splitViewController(splitViewController, show: vc, sender: sender) ?? false
        #endif
        trail?.reportOnNextTurn()
        return handled
    }

    func splitViewController(_ splitViewController: UISplitViewController, showDetail vc: UIViewController, sender: Any?) -> Bool {
        #if canImport(UIKit)
        let handled = forwardee?.splitViewController?(splitViewController, showDetail: vc, sender: sender) ?? false
        #else
        let handled = forwardee?.splitViewController(splitViewController, showDetail: vc, sender: sender) ?? false
        #endif
        trail?.reportOnNextTurn()
        return handled
    }

    func splitViewControllerDidCollapse(_ svc: UISplitViewController) {
        trail?.splitViewControllerDidCollapse(svc)
        #if canImport(UIKit)
        forwardee?.splitViewControllerDidCollapse?(svc)
        #else
        forwardee?.splitViewControllerDidCollapse(svc)
        #endif
    }

    func splitViewControllerDidExpand(_ svc: UISplitViewController) {
        trail?.splitViewControllerDidExpand(svc)
        #if canImport(UIKit)
        forwardee?.splitViewControllerDidExpand?(svc)
        #else
        forwardee?.splitViewControllerDidExpand(svc)
        #endif
    }
}
