import CrashtrailUIKit
import ShopModel
import SwiftUI
import UIKit

/// The three tabs, each a navigation controller whose root is the tab's screen.
final class ShopTabBarController: UITabBarController {
    override func viewDidLoad() {
        super.viewDidLoad()
        viewControllers = [
            UINavigationController(rootViewController: HomeViewController()),
            UINavigationController(rootViewController: ScreenViewController(.cart, title: "Cart")),
            UINavigationController(rootViewController: ScreenViewController(.account, title: "Account")),
        ]
    }
}

/// A screen that shows one destination and has nothing to do.
class ScreenViewController: UIViewController, TrailScreen {
    let destination: ShopDestination

    init(_ destination: ShopDestination, title: String) {
        self.destination = destination
        super.init(nibName: nil, bundle: nil)
        self.title = title
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("the sample builds its screens in code") }

    var trailDestination: ShopDestination? { destination }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
    }
}

/// The home tab: a product to open.
final class HomeViewController: ScreenViewController {
    init() { super.init(.home, title: "Home") }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Product",
            primaryAction: UIAction { [weak self] _ in
                self?.navigationController?.pushViewController(ProductViewController(id: "42"), animated: true)
            })
    }
}

/// A product, whose review is written in a sheet that SwiftUI draws.
final class ProductViewController: ScreenViewController {
    let productID: String

    init(id: String) {
        productID = id
        super.init(.product(id: id), title: "Product \(id)")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Review", primaryAction: UIAction { [weak self] _ in self?.presentReview() })
    }

    private func presentReview() {
        let review = ReviewHostingController(productID: productID)
        present(review, animated: true) {
            // UIKit tells no delegate of a presentation made in code: the report records it and observes the sheet.
            (self.view.window?.windowScene?.delegate as? SceneDelegate)?.reportScreens()
        }
    }
}

/// The review sheet: a SwiftUI view in a hosting controller, a screen of the UIKit tree like any other.
final class ReviewHostingController: UIHostingController<ReviewView>, TrailScreen {
    let productID: String

    init(productID: String) {
        self.productID = productID
        super.init(rootView: ReviewView(productID: productID))
    }

    @available(*, unavailable)
    @MainActor required dynamic init?(coder aDecoder: NSCoder) { fatalError("the sample builds its screens in code") }

    var trailDestination: ShopDestination? { .review(productID: productID) }
}

/// What the review sheet draws.
struct ReviewView: View {
    let productID: String
    @State private var text = ""

    var body: some View {
        Form {
            Section("Product \(productID)") { TextField("Your review", text: $text) }
        }
    }
}
