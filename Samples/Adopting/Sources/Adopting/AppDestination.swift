public import CrashtrailDestinations

// docs/ADOPTING.md, step 2: every screen of the app, annotated; the manifest is derived from it.
@TrailManifest(app: "com.example.shop")
public enum AppDestination: Codable, Hashable, Sendable {
    @Route("shop://home", tab: true) case home
    @Route("shop://cart", tab: true) case cart
    @Route("shop://account", requires: ["signedIn"], tab: true) case account
    @Route("shop://product/{id}") case product(id: String)
    @Route("shop://orders/{number:int}") case order(number: Int)
    @Route("shop://search?q={text}", redact: ["text"]) case search(text: String)
    @Route("shop://review/{productID}", presentation: .modal, requires: ["signedIn"]) case review(productID: String)
    @Route("shop://sign-in", presentation: .modal, provides: ["signedIn"]) case signIn
}
