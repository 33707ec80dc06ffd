import CrashtrailCore
import CrashtrailDestinations
import Testing

/// Two templates that match the same links: the syntax of each case is fine, only the whole manifest is not.
@TrailManifest(app: "com.example.twins")
enum TwinDestination: Codable {
    @Route("twins://home", tab: true) case home
    @Route("twins://item/{id}") case item(id: String)
    @Route("twins://item/{code}") case itemByCode(code: String)
}

/// A template the macro reads but the runtime parser refuses: a placeholder in a query key.
@TrailManifest(app: "com.example.hosts")
enum HostDestination: Codable {
    @Route("hosts://home", root: true) case home
    @Route("hosts://search?{q}=1") case search(q: String)
}

/// What only the runtime validator can tell surfaces from the generated conformance, naming the destination.
@Suite("@TrailManifest runtime checks")
struct TrailManifestRuntimeTests {
    @Test("Two cases whose templates match the same links are refused, naming the second")
    func duplicateTemplate() {
        // When
        let error = #expect(throws: ManifestError.self) { try TwinDestination.trailManifest() }
        // Then
        #expect(error?.code == .duplicateTemplate)
        #expect(error?.destination == "itemByCode")
        #expect(error?.source == "TwinDestination")
    }

    @Test("A template the runtime parser refuses is named with its destination")
    func unreadableTemplate() {
        let error = #expect(throws: ManifestError.self) { try HostDestination.trailManifest(source: "hosts.yml") }
        #expect(error?.code == .invalidTemplate)
        #expect(error?.destination == "search")
        #expect(error?.source == "hosts.yml")
    }
}
