internal import Foundation

#if canImport(UIKit)
internal import UIKit
#else
internal import UIKitStandIn
#endif

/// The objects under a root whose delegate the glue takes: navigation, tab bar and split view controllers (a tab
/// bar's More navigation controller among them) and the presented view controllers' presentation controllers.
@MainActor
enum ContainerWalk {
    /// How deep view controllers may nest: UIKit's trees are shallow; the limit guards against a cycle.
    private static let depthLimit = 32

    /// The containers under `root` and the presentation controllers of the chain it presents, each once.
    static func containers(under root: UIViewController) -> [NSObject] {
        var found: [NSObject] = []
        var seen: Set<ObjectIdentifier> = []
        func visit(_ controller: UIViewController, depth: Int) {
            guard depth < depthLimit, seen.insert(ObjectIdentifier(controller)).inserted else { return }
            switch controller {
            case let tabBar as UITabBarController:
                found.append(tabBar)
                for tab in tabBar.viewControllers ?? [] { visit(tab, depth: depth + 1) }
                visit(tabBar.moreNavigationController, depth: depth + 1)
            case let navigation as UINavigationController:
                found.append(navigation)
                for screen in navigation.viewControllers { visit(screen, depth: depth + 1) }
            case let split as UISplitViewController:
                found.append(split)
                for column in split.viewControllers { visit(column, depth: depth + 1) }
            default:
                for child in controller.children { visit(child, depth: depth + 1) }
            }
        }
        visit(root, depth: 0)
        for modal in root.presentedChain {
            visit(modal, depth: 0)
            if let presentation = modal.presentationController { found.append(presentation) }
        }
        return found
    }
}
