import Foundation

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

    /// The view controllers this one contains, in the order they were added.
    open private(set) var children: [UIViewController] = []

    /// The container of this view controller, if any.
    weak open private(set) var parent: UIViewController?

    /// Adds `childController` as a child of this view controller (a custom container's first step).
    /// - Parameter childController: the view controller to contain.
    open func addChild(_ childController: UIViewController) {
        childController.removeFromParent()
        children.append(childController)
        childController.parent = self
    }

    /// Removes this view controller from its container.
    open func removeFromParent() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    /// Called just before this view controller is added to or removed from a container.
    /// - Parameter parent: the new container, or nil when it is removed.
    open func willMove(toParent parent: UIViewController?) {}

    /// Called after this view controller is added to or removed from a container.
    /// - Parameter parent: the new container, or nil when it is removed.
    open func didMove(toParent parent: UIViewController?) {}

    /// Shows `vc` in the primary context: UIKit asks the containers above for the one that shows it (a navigation
    /// controller pushes it, a split view controller shows it in its primary column); nothing happens here.
    /// - Parameters:
    ///   - vc: the view controller to show.
    ///   - sender: the object making the request.
    open func show(_ vc: UIViewController, sender: Any?) {}

    /// Shows `vc` in a secondary (detail) context: a split view controller shows it in its secondary column; nothing
    /// happens here.
    /// - Parameters:
    ///   - vc: the view controller to show.
    ///   - sender: the object making the request.
    open func showDetailViewController(_ vc: UIViewController, sender: Any?) {}

    private var tabBarItemStorage: UITabBarItem?

    /// The item that represents this view controller in a tab bar, made when first read.
    ///
    /// UIKit declares it in an extension of `UIViewController`, implicitly unwrapped, as here.
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    open var tabBarItem: UITabBarItem! {
        get {
            if let item = tabBarItemStorage { return item }
            let item = UITabBarItem()
            tabBarItemStorage = item
            return item
        }
        set { tabBarItemStorage = newValue }
    }
}
