// A stand-in for UIKit, for building on platforms without it (Linux, macOS without Catalyst); never shipped, never a
// product. On Apple platforms with UIKit, CrashtrailUIKit imports UIKit itself and this module is not compiled in.
//
// It declares exactly the UIKit API CrashtrailUIKit uses, with the signatures of Apple's documentation, so a typo or
// a wrong signature in the glue fails the build here too:
//   UIResponder; UIView; UIWindow: rootViewController (which docs/ADOPTING.md's snippet reads);
//   UIViewController: presentedViewController, presentationController, transitionCoordinator;
//   UINavigationController: viewControllers, delegate; UITabBarController: viewControllers, selectedIndex, delegate;
//   UIPresentationController: init(presentedViewController:presenting:), presentedViewController, delegate;
//   UINavigationControllerDelegate: navigationController(_:willShow:animated:), navigationController(_:didShow:animated:);
//   UITabBarControllerDelegate: tabBarController(_:didSelect:);
//   UIAdaptivePresentationControllerDelegate: presentationControllerWillDismiss(_:), presentationControllerDidDismiss(_:);
//   UIViewControllerTransitionCoordinator: animate(alongsideTransition:completion:);
//   UIViewControllerTransitionCoordinatorContext: isInteractive, isCancelled.
//
// Where it differs from UIKit, because Swift here has no Objective-C runtime:
// - The delegate protocols' methods are `optional` in UIKit (@objc). Here they are requirements with default no-op
//   implementations in a protocol extension, so a conformance may leave them out as in UIKit; but a call through the
//   protocol always reaches one (UIKit's callers check `responds(to:)` first).
// - The protocols declare only the requirements the glue uses; UIKit's have more, so a type conforming to these need not
//   conform to UIKit's (only the glue is meant to compile against both, tests' doubles only here).
// - `transitionCoordinator` is declared in the class rather than in an extension (Swift can override only @objc members
//   of extensions), so tests can override it, as they override `presentedViewController`.
// - The properties UIKit computes (`presentedViewController`, `presentationController`, `transitionCoordinator`) are
//   nil here; nothing presents or animates. Tests subclass to return what a screen would show.
import Foundation

/// Stand-in for UIKit's `UIResponder` (the superclass of `UIViewController`).
@MainActor
open class UIResponder: NSObject {}

/// Stand-in for UIKit's `UIView` (the superclass of `UIWindow`).
@MainActor
open class UIView: UIResponder {}

/// Stand-in for UIKit's `UIWindow`, with the member an app hands the glue.
@MainActor
open class UIWindow: UIView {
    /// The root view controller for the window.
    open var rootViewController: UIViewController?
}

/// Stand-in for UIKit's `UIViewController`, with the members the glue reads.
@MainActor
open class UIViewController: UIResponder {
    /// The view controller this one presents (UIKit: also one an ancestor presents); nil here.
    open var presentedViewController: UIViewController? { nil }

    /// The presentation controller managing this view controller's presentation; nil here.
    open var presentationController: UIPresentationController? { nil }

    /// The coordinator of the active transition, if any; nil here.
    ///
    /// UIKit declares it in an extension of `UIViewController`.
    open var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { nil }
}

/// Stand-in for UIKit's `UINavigationController`.
@MainActor
open class UINavigationController: UIViewController {
    /// The view controllers on the navigation stack, root first.
    open var viewControllers: [UIViewController] = []

    /// The navigation controller's delegate.
    weak open var delegate: (any UINavigationControllerDelegate)?
}

/// Stand-in for UIKit's `UITabBarController`.
@MainActor
open class UITabBarController: UIViewController {
    /// The root view controllers of the tabs, in order.
    open var viewControllers: [UIViewController]?

    /// The index of the selected tab.
    open var selectedIndex: Int = 0

    /// The tab bar controller's delegate.
    weak open var delegate: (any UITabBarControllerDelegate)?
}

/// Stand-in for UIKit's `UIPresentationController`.
@MainActor
open class UIPresentationController: NSObject {
    /// The view controller being presented.
    open private(set) var presentedViewController: UIViewController

    /// The presentation controller's delegate (UIKit: `UIAdaptivePresentationControllerDelegate`).
    weak open var delegate: (any UIAdaptivePresentationControllerDelegate)?

    /// A presentation controller for `presentedViewController`, presented by `presentingViewController`.
    /// - Parameters:
    ///   - presentedViewController: the view controller being presented.
    ///   - presentingViewController: the view controller presenting it, or nil.
    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        self.presentedViewController = presentedViewController
        super.init()
    }
}

/// Stand-in for UIKit's `UIViewControllerTransitionCoordinatorContext`: the members the glue reads.
@MainActor
public protocol UIViewControllerTransitionCoordinatorContext: NSObjectProtocol {
    /// Whether the transition is currently interactive.
    var isInteractive: Bool { get }
    /// Whether the transition was cancelled.
    var isCancelled: Bool { get }
}

/// Stand-in for UIKit's `UIViewControllerTransitionCoordinator`: the method the glue calls.
@MainActor
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    /// Runs `animation` alongside the transition and `completion` once it completes or is cancelled.
    /// - Parameters:
    ///   - animation: run alongside the transition's animations, or nil.
    ///   - completion: run when the transition ends, or nil.
    /// - Returns: whether the animations are performed.
    @discardableResult
    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
}

/// Stand-in for UIKit's `UINavigationControllerDelegate` (optional methods: see the header).
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

/// Stand-in for UIKit's `UITabBarControllerDelegate` (optional methods: see the header).
@MainActor
public protocol UITabBarControllerDelegate: NSObjectProtocol {
    /// The user selected `viewController`'s tab.
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
    /// Does nothing (UIKit: an optional method left out).
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
}

/// Stand-in for UIKit's `UIAdaptivePresentationControllerDelegate` (optional methods: see the header).
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
