import CrashtrailCore
public import CrashtrailDestinations

/// Every screen of the PirateBay sample app, as the app itself would declare it: a plain Swift enum with
/// synthesized `Codable`, so crashtrail records `{"item":{"id":"L-42"}}` and `{"order":{"id":{"rawValue":"A1"}}}`.
///
/// The enum is the source of its manifest (SPEC section 18): `@TrailManifest` derives the document from the
/// `@Route` annotations, in case order. `ManifestDriftTests` keeps it equal to the hand-written `piratebay.yml`
/// that the conformance suite reads, and to `Samples/PirateBay/piratebay.generated.yml`, the file a team uploads
/// with `crashtrail manifest add`.
@TrailManifest(app: "com.example.piratebay", modalTransition: 500)
public enum PirateBayDestination: Codable, Hashable, Sendable {
    @Route("piratebay://home", tab: true) case home
    @Route("piratebay://marketplace", tab: true) case marketplace
    @Route("piratebay://me", requires: ["signedIn"], tab: true) case myProfile
    @Route("piratebay://item/{id}") case item(id: String)
    @Route("piratebay://orders/{id.rawValue}?tab=summary") case order(id: OrderID)
    @Route("piratebay://orders/{id.rawValue}?tab=items") case orderItems(id: OrderID)
    @Route("piratebay://pirate/{id}") case profile(id: String)
    @Route("piratebay://pirate/{id}/seller") case seller(id: String)
    @Route("piratebay://pirate/featured/seller") case featuredSeller
    /// What the user typed never leaves the device.
    @Route("piratebay://search?q={text}", redact: ["text"]) case search(text: String)
    /// A marketplace page; unlabeled, so it is written `{"page":{"_0":4}}`.
    @Route("piratebay://marketplace/page/{_0:int}") case page(Int)
    @Route("piratebay://settings") case settings
    @Route("piratebay://settings/export", requires: ["signedIn"]) case downloadUserData
    @Route("piratebay://shop/rum", requires: ["signedIn", "ageVerified"]) case rumShop
    @Route("piratebay://settings/opt-out", presentation: .modal, requires: ["signedIn"]) case optOut
    @Route("piratebay://pirate/{id}/message", presentation: .modal, requires: ["signedIn"]) case compose(id: String)
    @Route("piratebay://login", presentation: .modal, provides: ["signedIn"]) case login
    @Route("piratebay://age-check", presentation: .modal, provides: ["ageVerified"]) case ageCheck
    /// The gate shown after sign-up: it closes the way back.
    @Route("piratebay://welcome", gate: true) case welcome
}

/// A wrapper ID type, as apps use them: synthesized `Codable` writes it `{"rawValue":"A1"}`.
public struct OrderID: Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }
}
