import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 15: a manifest names the screens crash reporters write for its destinations (`screen:` /
/// `screens:`), so breadcrumbs can be read as destinations.
@Suite("Manifest screen names")
struct ManifestScreenTests {
    static func manifest(screens: [String: String]) throws -> Manifest {
        var yaml = SpecManifests.piratebay
        for (destination, line) in screens {
            yaml = yaml.replacingOccurrences(
                of: "\n  \(destination):\\s+\\{", with: "\n  \(destination): { \(line),", options: .regularExpression)
        }
        return try Manifest(yaml: yaml, source: "piratebay.yml")
    }

    @Test("A screen name finds its destination, with or without a module prefix on either side")
    func findsDestinations() throws {
        // Given screen names as UIKit, SwiftUI and Analytics write them
        let manifest = try Self.manifest(screens: [
            "home": #"screen: HomeViewController"#,
            "item": #"screens: ["PirateBay.ItemViewController", "ItemView", "item_detail"]"#,
        ])
        // Then each finds its destination; names the manifest lacks find none
        #expect(manifest.destination(forScreen: "HomeViewController")?.name == "home")
        #expect(manifest.destination(forScreen: "PirateBay.HomeViewController")?.name == "home")
        #expect(manifest.destination(forScreen: "PirateBay.ItemViewController")?.name == "item")
        #expect(manifest.destination(forScreen: "ItemViewController")?.name == "item")
        #expect(manifest.destination(forScreen: "ItemView")?.name == "item")
        #expect(manifest.destination(forScreen: "item_detail")?.name == "item")
        #expect(manifest.destination(forScreen: "UINavigationController") == nil)
        #expect(manifest.spec(named: "item")?.screens == ["PirateBay.ItemViewController", "ItemView", "item_detail"])
    }

    @Test("Screen names leave the dictionary ID as it was: trails encoded before still decode")
    func dictionaryUnchanged() throws {
        let plain = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        let named = try Self.manifest(screens: ["home": #"screen: HomeViewController"#])
        #expect(ManifestDictionary(manifest: plain).idString == ManifestDictionary(manifest: named).idString)
    }

    @Test(
        "A screen name that names two destinations is refused, naming both",
        arguments: [
            ["home": #"screen: Shared"#, "item": #"screen: Shared"#],
            ["home": #"screen: App.Shared"#, "item": #"screen: Other.Shared"#],
        ])
    func duplicatesRefused(screens: [String: String]) throws {
        let error = #expect(throws: ManifestError.self) { try Self.manifest(screens: screens) }
        #expect(error?.code == .duplicateScreen)
        #expect(error?.message.contains("names both") == true, "\(String(describing: error))")
        #expect(error?.message.contains("home") == true && error?.message.contains("item") == true)
    }

    @Test("An empty screen name is refused, naming the destination")
    func emptyRefused() throws {
        let error = #expect(throws: ManifestError.self) { try Self.manifest(screens: ["home": #"screen: " ""#]) }
        #expect(error?.code == .invalidField)
        #expect(error?.description.contains("home") == true, "\(String(describing: error))")
    }
}
