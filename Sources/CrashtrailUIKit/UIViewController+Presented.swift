#if canImport(UIKit)
internal import UIKit
#else
internal import UIKitStandIn
#endif

extension UIViewController {
    /// The view controllers presented from this one, in order: its `presentedViewController`, that one's, and so on.
    ///
    /// UIKit's chain is finite; the limit of 64 only guards against a cycle a test double could make.
    @MainActor
    var presentedChain: [UIViewController] {
        var chain: [UIViewController] = []
        var presented = presentedViewController
        while let modal = presented, chain.count < 64 {
            chain.append(modal)
            presented = modal.presentedViewController
        }
        return chain
    }
}
