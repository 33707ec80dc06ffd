public import CrashtrailAdapters
public import Foundation

#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

/// The UIKit glue: reports what the view controllers under a root show to a `ScreenSettler`.
///
/// It reports as UIKit's delegate callbacks and key-value notifications come in (SPEC section 18). No method is
/// swizzled.
///
/// ``install()`` makes it the delegate of every navigation, tab bar and split view controller under the root and of
/// every presented view controller's presentation controller. A delegate the app set, before `install()` or at any
/// time after, is kept: the container's delegate becomes a proxy that reports, then passes every call on to the
/// app's delegate (on Apple platforms, also the methods the glue does not implement, so a custom transition or a
/// refused dismissal works as before). Reading a container's `delegate` back gives that proxy.
///
/// | UIKit tells | settler |
/// |---|---|
/// | `navigationController(_:willShow:animated:)` with a transition coordinator | `transitionBegan(interactive:)`, then in the coordinator's completion `transitionEnded(cancelled:showing:)` with the tree walked then |
/// | `navigationController(_:didShow:animated:)`, `tabBarController(_:didSelect:)`, `presentationControllerDidDismiss(_:)` | `screensChanged(_:)` with the tree walked now |
/// | `presentationControllerWillDismiss(_:)` (a sheet pulled down) with a transition coordinator | `transitionBegan(interactive: true)`, then `transitionEnded(cancelled:showing:)` in its completion |
/// | a tab bar controller's `selectedIndex` or `selectedViewController` set in code (key-value observed) | `screensChanged(_:)`, on the main actor's next turn |
/// | `splitViewController(_:show:sender:)`, `…(_:showDetail:sender:)`, `splitViewControllerDidCollapse(_:)`, `…DidExpand(_:)` | `screensChanged(_:)` once the split view shows it, on the main actor's next turn |
/// | the window made key (``init(settler:window:)``) | `screensChanged(_:)` with its tree |
///
/// The walk is `ScreenTree(walking:)`: tab bars (with the More tab), navigation stacks, split views, custom
/// containers and the presented chain. UIKit tells no delegate of a present or dismiss the app makes in code, nor of
/// a custom container's transition: call ``reportScreens()`` once it is done; it also observes the containers the new
/// screens bring.
///
/// **Several scenes.** Give each scene's window a trail of its own, with the session's one settler: a trail made with
/// ``init(settler:window:)`` reports only while its window is the key window, and reports its screens when the window
/// becomes key, so the trail follows the window the user is using.
///
/// ```swift
/// // UIWindowSceneDelegate.scene(_:willConnectTo:options:)
/// let window = UIWindow(windowScene: windowScene)
/// window.rootViewController = ShopTabBarController()
/// window.makeKeyAndVisible()
/// trail = ViewControllerTrail(settler: session.settler, window: window)
/// trail.install()
/// ```
@MainActor
public final class ViewControllerTrail: NSObject, UINavigationControllerDelegate, UITabBarControllerDelegate,
    UIAdaptivePresentationControllerDelegate, UISplitViewControllerDelegate
{
    /// The settler the screens are reported to.
    public let settler: ScreenSettler
    private let root: @MainActor () -> UIViewController?
    /// The window whose key status gates the reports, for a trail of one scene's window.
    private weak var window: UIWindow?
    private let followsKeyWindow: Bool
    /// The containers observed, by identity: each one's delegate proxy and observations.
    private var observed: [ObjectIdentifier: ObservedContainer] = [:]
    /// The observation of the window's becoming key, removed with the trail.
    private var keyWindowObservation: NotificationObservation?

    /// Glue that reports the view controllers under `root` to `settler`.
    /// - Parameters:
    ///   - settler: the session's settler.
    ///   - root: the root view controller now, read at each report (`{ [weak window] in window?.rootViewController }`);
    ///     nil reports nothing.
    public init(settler: ScreenSettler, root: @escaping @MainActor () -> UIViewController?) {
        self.settler = settler
        self.root = root
        self.followsKeyWindow = false
        super.init()
    }

    /// Glue for one scene's window: it reports the screens under the window's root view controller while the window
    /// is the key window, and reports them when it becomes key.
    /// - Parameters:
    ///   - settler: the session's settler, shared by the trails of every scene.
    ///   - window: the scene's window.
    public init(settler: ScreenSettler, window: UIWindow) {
        self.settler = settler
        self.root = { [weak window] in window?.rootViewController }
        self.window = window
        self.followsKeyWindow = true
        super.init()
        keyWindowObservation = NotificationObservation(UIWindow.didBecomeKeyNotification, of: window) { [weak self] in
            self?.reportScreens()
        }
    }

    /// Whether reports go to the settler now: always, or for a scene's trail while its window is key.
    public var isReporting: Bool {
        guard followsKeyWindow else { return true }
        return window?.isKeyWindow ?? false
    }

    /// The tree the screen shows now; nil without a root view controller, and while a tab bar's More list shows (a
    /// list of tabs, which no state of the manifest is).
    public var screenTree: ScreenTree? {
        guard let root = root() else { return nil }
        let tree = ScreenTree(walking: root)
        if tree.tab == nil, ViewControllerWalk.soleContent(of: root) is UITabBarController { return nil }
        return tree
    }

    /// Reports the tree the screen shows now, after observing the containers it holds: once at launch, and after the
    /// app presents or dismisses in code or a custom container of its own changes what it shows.
    public func reportScreens() {
        observeContainers()
        guard isReporting, let tree = screenTree else { return }
        settler.screensChanged(tree)
    }

    /// Observes every navigation, tab bar and split view controller under the root and every presented view
    /// controller's presentation controller (keeping the app's delegates), then reports the screen.
    ///
    /// Containers that come later are observed at the next report; ``reportScreens()`` after a presentation in code
    /// observes the new sheet's.
    public func install() {
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

    // MARK: UISplitViewControllerDelegate

    /// The split view is asked to show `vc` in its primary column: the screen is reported once it does.
    /// - Returns: false, so that the split view shows it.
    public func splitViewController(_ splitViewController: UISplitViewController, show vc: UIViewController, sender: Any?) -> Bool {
        reportOnNextTurn()
        return false
    }

    /// The split view is asked to show `vc` as its detail: the screen is reported once it does.
    /// - Returns: false, so that the split view shows it.
    public func splitViewController(
        _ splitViewController: UISplitViewController, showDetail vc: UIViewController, sender: Any?
    ) -> Bool {
        reportOnNextTurn()
        return false
    }

    /// The split view collapsed to one column: the screen is reported once it has.
    public func splitViewControllerDidCollapse(_ svc: UISplitViewController) {
        reportOnNextTurn()
    }

    /// The split view expanded to its columns: the screen is reported once it has.
    public func splitViewControllerDidExpand(_ svc: UISplitViewController) {
        reportOnNextTurn()
    }

    // MARK: Reporting

    /// Reports the screen on the main actor's next turn: after the change UIKit is making now.
    func reportOnNextTurn() {
        Task { @MainActor [weak self] in self?.reportScreens() }
    }

    /// Begins a transition on the settler and ends it in `coordinator`'s completion with the tree shown then.
    private func settleAfter(_ coordinator: any UIViewControllerTransitionCoordinator, interactive: Bool) {
        guard isReporting else { return }
        settler.transitionBegan(interactive: interactive)
        coordinator.animate(alongsideTransition: nil) { [weak self] context in
            guard let self else { return }
            observeContainers()
            settler.transitionEnded(cancelled: context.isCancelled, showing: screenTree)
        }
    }

    // MARK: Observing the containers

    /// Observes each container under the root not observed yet, and forgets those that are gone.
    private func observeContainers() {
        observed = observed.filter { $0.value.container != nil }
        guard let root = root() else { return }
        for container in ContainerWalk.containers(under: root) {
            let id = ObjectIdentifier(container)
            guard observed[id] == nil else { continue }
            observed[id] = ObservedContainer(observing: container, for: self)
        }
    }
}
