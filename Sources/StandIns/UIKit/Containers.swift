import Foundation

/// Stand-in for UIKit's `UINavigationController`.
@MainActor
open class UINavigationController: UIViewController {
    /// The view controllers on the navigation stack, root first.
    open var viewControllers: [UIViewController] = []

    /// The navigation controller's delegate (key-value observed).
    weak open var delegate: (any UINavigationControllerDelegate)? {
        didSet { KeyValueObservers.didChange(self, \UINavigationController.delegate) }
    }
}

/// Stand-in for UIKit's `UITabBarController`.
@MainActor
open class UITabBarController: UIViewController {
    /// The root view controllers of the tabs, in order.
    open var viewControllers: [UIViewController]?

    /// The index of the selected tab; `NSNotFound` while the More navigation controller is selected (key-value
    /// observed).
    open var selectedIndex: Int = 0 {
        didSet { KeyValueObservers.didChange(self, \UITabBarController.selectedIndex) }
    }

    /// The selected tab's view controller, or the More navigation controller (key-value observed).
    ///
    /// Setting it selects the tab of that view controller.
    open var selectedViewController: UIViewController? {
        get {
            if selectedIndex == NSNotFound { return moreNavigationController }
            guard let controllers = viewControllers, controllers.indices.contains(selectedIndex) else { return nil }
            return controllers[selectedIndex]
        }
        set {
            if newValue === moreNavigationController {
                selectedIndex = NSNotFound
            } else if let newValue, let index = viewControllers?.firstIndex(where: { $0 === newValue }) {
                selectedIndex = index
            }
            KeyValueObservers.didChange(self, \UITabBarController.selectedViewController)
        }
    }

    private lazy var more = UINavigationController()
    private let bar = UITabBar()

    /// The navigation controller of the More tab: its list of the tabs the bar has no room for, then the screens of
    /// the one picked there.
    open var moreNavigationController: UINavigationController { more }

    /// The tab bar: its items are the tabs shown in it (and the More tab's item when some are not).
    open var tabBar: UITabBar { bar }

    /// The tab bar controller's delegate (key-value observed).
    weak open var delegate: (any UITabBarControllerDelegate)? {
        didSet { KeyValueObservers.didChange(self, \UITabBarController.delegate) }
    }
}

/// Stand-in for UIKit's `UITabBar`.
@MainActor
open class UITabBar: UIView {
    /// The items the bar shows, left to right.
    open var items: [UITabBarItem]?
}

/// Stand-in for UIKit's `UIBarItem`.
@MainActor
open class UIBarItem: NSObject {}

/// Stand-in for UIKit's `UITabBarItem`: the item of one tab.
@MainActor
open class UITabBarItem: UIBarItem {}

/// Stand-in for UIKit's `UISplitViewController`.
@MainActor
open class UISplitViewController: UIViewController {
    /// The view controllers of its columns, primary first; one (the primary) while collapsed.
    open var viewControllers: [UIViewController] = []

    /// Whether only one column shows (compact width: the secondary is pushed on the primary's stack); false here.
    open var isCollapsed: Bool { false }

    /// The split view controller's delegate (key-value observed).
    weak open var delegate: (any UISplitViewControllerDelegate)? {
        didSet { KeyValueObservers.didChange(self, \UISplitViewController.delegate) }
    }
}
