import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

@Suite("Manifest document")
struct ManifestDocumentTests {
    /// Every manifest this project has: the samples and the conformance suite's.
    static func manifests() throws -> [Manifest] {
        let files = [
            "Samples/PirateBay/Sources/PirateBay/piratebay.yml", "Samples/Harbor/harbor.yml",
            "Samples/trails-golden/lighthouse.yml",
        ].map { PackageRoot.url.appendingPathComponent($0) }
        var manifests = try files.map { try Manifest(contentsOf: $0) }
        let suite = try ConformanceSuite.required()
        manifests += try ["piratebay.yml", "lighthouse.yml"].map { try suite.manifest(named: $0) }
        return manifests
    }

    @Test("loads back to a manifest with the same app, tabs, root, transition, conditions and destinations in order")
    func roundTrip() throws {
        for manifest in try Self.manifests() {
            let again = try Manifest(yaml: manifest.documentText, source: "document")
            #expect(again.app == manifest.app)
            #expect(again.tabs == manifest.tabs)
            #expect(again.root == manifest.root)
            #expect(again.modalTransition == manifest.modalTransition)
            #expect(again.conditions == manifest.conditions)
            #expect(again.destinations == manifest.destinations, "\(manifest.source)")
            #expect(again.documentText == manifest.documentText)
        }
    }

    @Test("routes deep links alike, including the order that breaks ties")
    func routesAlike() throws {
        for manifest in try Self.manifests() {
            let again = try Manifest(yaml: manifest.documentText, source: "document")
            var generator = RandomStepGenerator(manifest: manifest, seed: 7)
            for _ in 0..<500 {
                let destination = generator.destination()
                guard let url = manifest.url(for: destination) else { continue }
                #expect(again.url(for: destination) == url)
                #expect(again.destination(forURL: url) == manifest.destination(forURL: url))
            }
        }
    }
}
