internal import Foundation

#if canImport(UIKit)
internal import UIKit
#else
internal import UIKitStandIn
#endif

/// What the trail keeps for one container it observes: the proxy it made the container's delegate, and the
/// key-value observations that keep it so and see a tab bar controller's selection change in code.
///
/// When the app sets a delegate of its own, before or after, the proxy takes it as the one it passes calls on to, and
/// becomes the container's delegate again.
@MainActor
final class ObservedContainer {
    /// The container; the entry is dropped once it is gone.
    private(set) weak var container: NSObject?
    private let proxy: DelegateProxy
    private var observations: [AnyObject] = []
    /// Makes the proxy the container's delegate again, passing calls on to the delegate the app set there.
    private var reclaimDelegate: () -> Void = {}

    init(observing container: NSObject, for trail: ViewControllerTrail) {
        self.container = container
        switch container {
        case let tabBar as UITabBarController:
            proxy = TabBarDelegateProxy(trail: trail)
            observe(tabBar, \UITabBarController.delegate)
            // A selection made in code calls no delegate; taps call `tabBarController(_:didSelect:)` as well.
            observations.append(PropertyObservation(tabBar, \UITabBarController.selectedIndex) { [weak trail] in trail?.reportScreens() })
            observations.append(
                PropertyObservation(tabBar, \UITabBarController.selectedViewController) { [weak trail] in trail?.reportScreens() })
        case let navigation as UINavigationController:
            proxy = NavigationDelegateProxy(trail: trail)
            observe(navigation, \UINavigationController.delegate)
        case let split as UISplitViewController:
            proxy = SplitViewDelegateProxy(trail: trail)
            observe(split, \UISplitViewController.delegate)
        case let presentation as UIPresentationController:
            proxy = PresentationDelegateProxy(trail: trail)
            observe(presentation, \UIPresentationController.delegate)
        default:
            proxy = DelegateProxy(trail: trail)
        }
    }

    /// Takes the container's delegate (set at `keyPath`) and keeps the proxy in its place, now and whenever the app
    /// sets another.
    private func observe<Container: NSObject & Sendable, Delegate>(
        _ container: Container, _ keyPath: ReferenceWritableKeyPath<Container, Delegate?>
    ) {
        let proxy = proxy
        reclaimDelegate = { [weak container] in
            guard let container else { return }
            let current = container[keyPath: keyPath]
            guard (current as AnyObject?) !== proxy, let delegate = proxy as? Delegate else { return }
            proxy.appDelegate = current as? any NSObjectProtocol
            container[keyPath: keyPath] = delegate
        }
        reclaimDelegate()
        observations.append(PropertyObservation(container, keyPath) { [weak self] in self?.reclaimDelegate() })
    }
}

/// One key-value observation of a property: Foundation's on Apple platforms (its handler then runs on the main
/// actor's next turn, after the setter that notified), the stand-in's elsewhere (at once).
@MainActor
final class PropertyObservation {
    private let observation: AnyObject

    init<Object: NSObject, Value>(_ object: Object, _ keyPath: KeyPath<Object, Value>, handler: @escaping @MainActor @Sendable () -> Void) {
        #if canImport(UIKit)
        observation = object.observe(keyPath, options: []) { _, _ in
            Task { @MainActor in handler() }
        }
        #else
        observation = KeyValueObservers.observe(object, keyPath, handler: handler)
        #endif
    }
}
