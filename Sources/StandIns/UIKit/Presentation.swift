import Foundation

/// Stand-in for UIKit's `UIPresentationController`.
@MainActor
open class UIPresentationController: NSObject {
    /// The view controller being presented.
    open private(set) var presentedViewController: UIViewController

    /// The presentation controller's delegate (UIKit: `UIAdaptivePresentationControllerDelegate`; key-value observed).
    weak open var delegate: (any UIAdaptivePresentationControllerDelegate)? {
        didSet { KeyValueObservers.didChange(self, \UIPresentationController.delegate) }
    }

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
