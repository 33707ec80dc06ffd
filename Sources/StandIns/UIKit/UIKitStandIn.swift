// A stand-in for UIKit, for building on platforms without it (Linux, macOS without Catalyst); never shipped, never a
// product. On Apple platforms with UIKit, CrashtrailUIKit imports UIKit itself and this module is not compiled in.
//
// It declares exactly the UIKit API CrashtrailUIKit uses, with the signatures of Apple's SDK, so a typo or a wrong
// signature in the glue fails the build here too; Tools/ios-lane.sh holds every public declaration here against the
// symbol graphs of the SDK's UIKit and Foundation (Tools/iOSLane/standins-check.py), in its name, argument labels,
// types, accessors and availability:
//   UIResponder; UIView; UIWindow (rootViewController, isKeyWindow, makeKey(), the key notifications);
//   UIViewController: presentedViewController, presentationController, transitionCoordinator, children, parent,
//     addChild(_:), removeFromParent(), willMove(toParent:), didMove(toParent:), show(_:sender:),
//     showDetailViewController(_:sender:), tabBarItem;
//   UINavigationController: viewControllers, delegate; UITabBarController: viewControllers, selectedIndex,
//     selectedViewController, moreNavigationController, tabBar, delegate; UITabBar: items; UIBarItem, UITabBarItem;
//   UISplitViewController: viewControllers, isCollapsed, delegate;
//   UIPresentationController: init(presentedViewController:presenting:), presentedViewController, delegate;
//   the delegate protocols of these four containers, with the methods the glue implements;
//   UIViewControllerTransitionCoordinator: animate(alongsideTransition:completion:);
//   UIViewControllerTransitionCoordinatorContext: isInteractive, isCancelled;
//   and, in KeyValueObserving.swift, Foundation's key-value observing, which Linux's Foundation lacks.
//
// Where it differs from UIKit, because Swift here has no Objective-C runtime:
// - The delegate protocols' methods are `optional` in UIKit (@objc). Here they are requirements with default
//   implementations in a protocol extension (doing nothing, or answering as UIKit does when a delegate leaves the
//   method out), so a conformance may leave them out as in UIKit; but a call through the protocol always reaches one
//   (UIKit's callers check `responds(to:)` first).
// - The protocols declare only the requirements the glue uses; UIKit's have more, so a type conforming to these need
//   not conform to UIKit's (only the glue is meant to compile against both, tests' doubles only here).
// - `transitionCoordinator` and `tabBarItem` are declared in the class rather than in an extension (Swift can
//   override only @objc members of extensions), so tests can override them, as they override
//   `presentedViewController`.
// - The properties UIKit computes (`presentedViewController`, `presentationController`, `transitionCoordinator`,
//   `isCollapsed`) are nil or false here; nothing presents, animates or collapses. Tests subclass to return what a
//   screen would show. What UIKit does on its own (pushing, presenting, moving a tab into the More list) tests do
//   as UIKit does it: they change the view controllers, then make UIKit's delegate calls.
// - The key-value observed properties (a tab bar controller's selection, the containers' delegates) notify their
//   observers when set, as Objective-C's automatic notification does for a property set through its setter.
import Foundation

/// Stand-in for UIKit's `UIResponder` (the superclass of `UIViewController`).
@MainActor
open class UIResponder: NSObject {}

/// Stand-in for UIKit's `UIView` (the superclass of `UIWindow`).
@MainActor
open class UIView: UIResponder {}

/// Stand-in for UIKit's `UIWindow`, with the members an app hands the glue.
@MainActor
open class UIWindow: UIView {
    /// The root view controller for the window.
    open var rootViewController: UIViewController?

    /// Whether the window is the key window of its app (the one taking keyboard and non-touch events).
    open private(set) var isKeyWindow = false

    /// The window that is key now, here: one at a time, as on a device.
    private static weak var keyWindow: UIWindow?

    /// Makes this window the key window; the one that was key resigns (each posts its notification).
    open func makeKey() {
        guard !isKeyWindow else { return }
        if let previous = Self.keyWindow {
            previous.isKeyWindow = false
            NotificationCenter.default.post(name: Self.didResignKeyNotification, object: previous)
        }
        isKeyWindow = true
        Self.keyWindow = self
        NotificationCenter.default.post(name: Self.didBecomeKeyNotification, object: self)
    }

    /// Posted when a window becomes the key window; the object is the window.
    public static let didBecomeKeyNotification = NSNotification.Name("UIWindowDidBecomeKeyNotification")

    /// Posted when a window resigns as the key window; the object is the window.
    public static let didResignKeyNotification = NSNotification.Name("UIWindowDidResignKeyNotification")
}
