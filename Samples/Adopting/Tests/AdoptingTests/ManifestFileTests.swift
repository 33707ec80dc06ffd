import Adopting
import CrashtrailDestinations
import Foundation
import Testing

// docs/ADOPTING.md, step 2: the manifest file the collector reads is the enum's, checked in the app's own tests.
@Test func manifestFileIsTheEnums() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("shop.manifest.yml")
    let committed = try? String(contentsOf: url, encoding: .utf8)
    if committed != AppDestination.trailManifestDocument {
        try AppDestination.trailManifestDocument.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("shop.manifest.yml was out of date and is written anew: commit it and run crashtrail manifest add")
    }
}
