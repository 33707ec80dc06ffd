import CrashtrailCore
import CrashtrailReplay
import Testing

/// Choosing a manifest for a trail's app (SPEC section 3).
@Suite("Manifest selection")
struct ManifestSelectionTests {
    @Test("several manifests: the one for the app is chosen without warnings")
    func picksByApp() throws {
        let manifests = [try TestManifests.lighthouse(), try TestManifests.piratebay()]
        let selection = try ManifestSelection(choosingFrom: manifests, forApp: "com.example.piratebay")
        #expect(selection.manifest.app == "com.example.piratebay")
        #expect(selection.warnings.isEmpty)
    }

    @Test("several manifests, none for the app: the error says which app needs one and lists the given")
    func noneMatches() throws {
        let manifests = [try TestManifests.lighthouse(), try TestManifests.piratebay()]
        #expect {
            try ManifestSelection(choosingFrom: manifests, forApp: "org.example.other")
        } throws: { error in
            guard let error = error as? ManifestSelectionError else { return false }
            return error.code == .noMatchingManifest && error.message.contains("org.example.other")
                && error.message.contains("lighthouse.yml (org.example.lighthouse)")
        }
    }

    @Test("one manifest for another app is used, with a warning")
    func singleOtherApp() throws {
        let selection = try ManifestSelection(choosingFrom: [try TestManifests.lighthouse()], forApp: "com.example.piratebay")
        #expect(selection.manifest.app == "org.example.lighthouse")
        #expect(selection.warnings.count == 1)
        #expect(selection.warnings.first?.contains("com.example.piratebay") == true)
    }

    @Test("no manifest at all is refused")
    func none() {
        #expect(throws: ManifestSelectionError.self) { try ManifestSelection(choosingFrom: [], forApp: "x") }
    }
}
