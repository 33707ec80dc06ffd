#if canImport(UIKit)
public import UIKit
#else
public import UIKitStandIn
#endif

/// A container view controller of the app's own that holds children it does not show: the walk of the view
/// controllers (`ScreenTree(walking:)`) descends into `shownChildren` rather than `children`.
///
/// A container that shows all of its children (a custom split, a page of cards) needs nothing: the walk takes
/// `children`. UIKit tells no delegate when a custom container changes what it shows (`addChild(_:)`, then the
/// transition): call ``ViewControllerTrail/reportScreens()`` once the new child shows.
///
/// ```swift
/// final class PagerController: UIViewController, TrailContainer {
///     var pages: [UIViewController] = []   // all added as children, one visible
///     var current = 0
///     var shownChildren: [UIViewController] { [pages[current]] }
/// }
/// ```
@MainActor public protocol TrailContainer: UIViewController {
    /// The children this container shows now, in the order a user sees them (the first at the bottom of a stack).
    var shownChildren: [UIViewController] { get }
}
