#if !canImport(UIKit)
import CrashtrailUIKit
import Foundation
import UIKitStandIn

/// A screen of the app: a view controller showing `destination` (nil: one that is no destination), which may present
/// another and may have a transition running.
final class ScreenController: UIViewController, TrailScreen {
    let destination: ShopDestination?
    var presented: UIViewController?
    var coordinator: CoordinatorDouble?

    init(_ destination: ShopDestination?) {
        self.destination = destination
        super.init()
    }

    var trailDestination: ShopDestination? { destination }
    override var presentedViewController: UIViewController? { presented }
    override var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { coordinator }
}

/// A navigation controller whose presentation and transition a test sets, as UIKit would while it runs.
final class NavigationDouble: UINavigationController {
    var presented: UIViewController?
    var coordinator: CoordinatorDouble?
    var presentation: UIPresentationController?

    convenience init(_ destinations: ShopDestination?...) {
        self.init()
        viewControllers = destinations.map(ScreenController.init)
    }

    override var presentedViewController: UIViewController? { presented }
    override var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { coordinator }
    override var presentationController: UIPresentationController? { presentation }
}

/// A tab bar controller that may present a view controller.
final class TabBarDouble: UITabBarController {
    var presented: UIViewController?
    override var presentedViewController: UIViewController? { presented }
}

/// A transition coordinator a test finishes: it keeps the completions and runs them when the test ends the transition.
final class CoordinatorDouble: NSObject, UIViewControllerTransitionCoordinator {
    let isInteractive: Bool
    private(set) var isCancelled = false
    private var completions: [(any UIViewControllerTransitionCoordinatorContext) -> Void] = []

    init(interactive: Bool) {
        self.isInteractive = interactive
        super.init()
    }

    @discardableResult
    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool {
        animation?(self)
        if let completion { completions.append(completion) }
        return true
    }

    /// Ends the transition: completed, or cancelled (the user let go too early).
    func finish(cancelled: Bool) {
        isCancelled = cancelled
        let running = completions
        completions = []
        for completion in running { completion(self) }
    }
}
#endif
