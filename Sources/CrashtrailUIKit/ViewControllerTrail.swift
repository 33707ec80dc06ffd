public import CrashtrailAdapters
import Foundation

#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

/// The UIKit glue: the delegate that reports what the view controllers under a root show to a `ScreenSettler`.
///
/// It reports as navigation, tab and presentation delegate callbacks come in (SPEC section 18). No method is
/// swizzled; UIKit calls it as a delegate.
///
/// | callback | settler |
/// |---|---|
/// | ``navigationController(_:willShow:animated:)`` with a transition coordinator | `transitionBegan(interactive:)`, then in the coordinator's completion `transitionEnded(cancelled:showing:)` with the tree walked then |
/// | ``navigationController(_:didShow:animated:)``, ``tabBarController(_:didSelect:)``, ``presentationControllerDidDismiss(_:)`` | `screensChanged(_:)` with the tree walked now |
/// | ``presentationControllerWillDismiss(_:)`` (a sheet pulled down) with a transition coordinator | `transitionBegan(interactive: true)`, then `transitionEnded(cancelled:showing:)` in its completion |
///
/// An app without delegates of its own installs it in one call, ``install()``. An app that has its own delegates
/// keeps them and calls the same methods of this object from theirs:
///
/// ```swift
/// func navigationController(_ nav: UINavigationController, didShow vc: UIViewController, animated: Bool) {
///     trail.navigationController(nav, didShow: vc, animated: animated)
///     // … the app's own work
/// }
/// ```
///
/// UIKit tells no delegate about a present or dismiss the app makes in code: call ``reportScreens()`` in its
/// completion (or ``install()``, to set this object as the new sheet's presentation delegate too).
@MainActor
public final class ViewControllerTrail: NSObject, UINavigationControllerDelegate, UITabBarControllerDelegate,
    UIAdaptivePresentationControllerDelegate
{
    /// The settler the screens are reported to.
    public let settler: ScreenSettler
    private let root: @MainActor () -> UIViewController?

    /// Glue that reports the view controllers under `root` to `settler`.
    /// - Parameters:
    ///   - settler: the session's settler.
    ///   - root: the root view controller now, read at each report (`{ [weak window] in window?.rootViewController }`);
    ///     nil reports nothing.
    public init(settler: ScreenSettler, root: @escaping @MainActor () -> UIViewController?) {
        self.settler = settler
        self.root = root
        super.init()
    }

    /// The tree the screen shows now, or nil without a root view controller.
    public var screenTree: ScreenTree? {
        root().map { ScreenTree(walking: $0) }
    }

    /// Reports the tree the screen shows now: after the app presents or dismisses in code, or once at launch.
    public func reportScreens() {
        if let tree = screenTree { settler.screensChanged(tree) }
    }

    /// Sets this object as the delegate of every tab bar and navigation controller under the root, and as the
    /// presentation delegate of every presented view controller, where none is set, then reports the screen.
    ///
    /// Delegates the app set are left alone (forward to this object from them). Call it again after presenting a
    /// navigation controller or a sheet in code, so it is observed too.
    public func install() {
        guard let root = root() else { return }
        for controller in [root] + root.presentedChain {
            for container in [controller] + ((controller as? UITabBarController)?.viewControllers ?? []) {
                if let tabBar = container as? UITabBarController, tabBar.delegate == nil { tabBar.delegate = self }
                if let navigation = container as? UINavigationController, navigation.delegate == nil { navigation.delegate = self }
            }
            if controller !== root, let presentation = controller.presentationController, presentation.delegate == nil {
                presentation.delegate = self
            }
        }
        reportScreens()
    }

    // MARK: UINavigationControllerDelegate

    /// A push or pop starts: when it animates (or the user swipes back), the change is recorded when it ends, and not
    /// at all when it is cancelled.
    public func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool
    ) {
        guard let coordinator = navigationController.transitionCoordinator else { return }
        settleAfter(coordinator, interactive: coordinator.isInteractive)
    }

    /// A push or pop ended: the screen is reported (coalesced into a transition still running).
    public func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool
    ) {
        reportScreens()
    }

    // MARK: UITabBarControllerDelegate

    /// The user selected a tab: the screen is reported.
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        reportScreens()
    }

    // MARK: UIAdaptivePresentationControllerDelegate

    /// The user started pulling a sheet down: the dismissal is recorded when it ends, and not at all when cancelled.
    public func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {
        guard let coordinator = presentationController.presentedViewController.transitionCoordinator else { return }
        settleAfter(coordinator, interactive: true)
    }

    /// The user dismissed a sheet: the screen is reported.
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        reportScreens()
    }

    /// Begins a transition on the settler and ends it in `coordinator`'s completion with the tree shown then.
    private func settleAfter(_ coordinator: any UIViewControllerTransitionCoordinator, interactive: Bool) {
        settler.transitionBegan(interactive: interactive)
        coordinator.animate(alongsideTransition: nil) { [weak self] context in
            guard let self else { return }
            settler.transitionEnded(cancelled: context.isCancelled, showing: screenTree)
        }
    }
}
