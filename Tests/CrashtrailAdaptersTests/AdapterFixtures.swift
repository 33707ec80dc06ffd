import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Foundation

/// What the adapter tests share: PirateBay's manifest and destinations, a recorder, a clock a test moves.
enum AdapterFixtures {
    static let app = Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412")
    static let session = Trail.Session(id: "00000000-0000-4000-8000-000000000018", started: "2026-11-01T00:00:00.000Z", pid: 1818)

    /// The PirateBay sample's manifest (tabs home, marketplace, myProfile; conditions signedIn and ageVerified).
    static func manifest() throws -> Manifest {
        try Manifest(contentsOf: PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"))
    }

    /// A recorder of observed states from PirateBay's launch state, with a fixed redaction key.
    @MainActor
    static func recorder() throws -> TrailRecorder {
        TrailRecorder(manifest: try manifest(), app: app, session: session, redactionKey: Array(repeating: 7, count: 32))
    }

    static let home = Destination("home")
    static let marketplace = Destination("marketplace")
    static let myProfile = Destination("myProfile")
    static let login = Destination("login")
    static let welcome = Destination("welcome")
    static let settings = Destination("settings")

    static func item(_ id: String) -> Destination { Destination("item", ["id": .string(id)]) }
    static func compose(_ id: String) -> Destination { Destination("compose", ["id": .string(id)]) }

    /// The tab roots, each its own stack.
    static let rootStacks: [[Destination?]] = [[home], [marketplace], [myProfile]]
}

/// A clock a test sets: milliseconds since the session started.
@MainActor
final class TestClock {
    var now: Int64 = 0

    /// Moves the clock on by `milliseconds` and returns the new time.
    @discardableResult
    func advance(_ milliseconds: Int64) -> Int64 {
        now += milliseconds
        return now
    }
}

/// A destination type as an app declares it, for the typed trees.
enum ShopDestination: Codable, Hashable {
    case home
    case marketplace
    case myProfile
    case item(id: String)
    case login
    case settings
    case compose(id: String)
    case page(Int)
    /// A fractional number: not a destination (SPEC section 2).
    case price(Double)
}
