import CrashtrailCore

/// Every screen of the PirateBay sample app, as the app itself would declare it: a plain Swift enum with
/// synthesized `Codable`, so crashtrail records `{"item":{"id":"L-42"}}` and `{"order":{"id":{"rawValue":"A1"}}}`.
public enum PirateBayDestination: Codable, Hashable, Sendable {
    case home
    case marketplace
    case myProfile
    case item(id: String)
    case order(id: OrderID)
    case orderItems(id: OrderID)
    case profile(id: String)
    case seller(id: String)
    case featuredSeller
    case search(text: String)
    /// A marketplace page; unlabeled, so it is written `{"page":{"_0":4}}`.
    case page(Int)
    case settings
    case downloadUserData
    case rumShop
    case optOut
    case compose(id: String)
    case login
    case ageCheck
    /// The gate shown after sign-up: it closes the way back.
    case welcome
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
