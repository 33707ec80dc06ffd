public import CrashtrailDestinations

/// Every screen of the sample shop: the manifest is derived from the cases.
@TrailManifest(app: "com.example.shopapp")
public enum ShopDestination: Codable, Hashable, Sendable, Identifiable {
    @Route("shopapp://home", tab: true) case home
    @Route("shopapp://cart", tab: true) case cart
    @Route("shopapp://account", tab: true) case account
    @Route("shopapp://product/{id}") case product(id: String)
    @Route("shopapp://review/{productID}", presentation: .modal, requires: ["signedIn"]) case review(productID: String)
    @Route("shopapp://sign-in", presentation: .modal, provides: ["signedIn"]) case signIn

    /// Identifies a sheet (SwiftUI's `sheet(item:)`).
    public var id: Self { self }

    /// The tab roots, in the manifest's tab order.
    public static let tabs: [ShopDestination] = [.home, .cart, .account]
}
