import CrashtrailCore
import CrashtrailDestinations
import Foundation
import PirateBay
import Testing

/// The enum is the source of truth (SPEC section 18): the manifest `@TrailManifest` derives from
/// `PirateBayDestination` must be the hand-written `piratebay.yml` the conformance suite reads, and the committed
/// `piratebay.generated.yml` a team uploads; a change to either side without the other fails here.
@Suite("PirateBay manifest derived from its enum")
struct ManifestDriftTests {
    /// `Samples/PirateBay`.
    static let sampleFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("The derived manifest equals piratebay.yml field by field, naming the destination that differs")
    func derivedEqualsHandWritten() throws {
        // Given
        let written = try PirateBay.manifest()
        // When
        let derived = try PirateBayDestination.trailManifest()
        // Then
        #expect(derived.app == written.app)
        #expect(derived.tabs == written.tabs)
        #expect(derived.root == written.root)
        #expect(derived.modalTransition == written.modalTransition)
        #expect(derived.conditions == written.conditions)
        for spec in written.destinations {
            guard let other = derived.spec(named: spec.name) else {
                Issue.record("destination \(spec.name) is in piratebay.yml but is no case of PirateBayDestination")
                continue
            }
            #expect(
                other == spec, "destination \(spec.name) differs: the enum gives \(Self.fields(other)), piratebay.yml \(Self.fields(spec))")
        }
        for spec in derived.destinations where written.spec(named: spec.name) == nil {
            Issue.record("destination \(spec.name) is a case of PirateBayDestination but is not in piratebay.yml")
        }
        // Manifest order ranks templates that match alike, so it is part of the manifest.
        #expect(derived.destinations.map(\.name) == written.destinations.map(\.name))
    }

    @Test("The derived document is the committed piratebay.generated.yml, byte for byte")
    func derivedDocumentIsCommitted() throws {
        // Given
        let url = Self.sampleFolder.appendingPathComponent("piratebay.generated.yml")
        let committed = try? String(contentsOf: url, encoding: .utf8)
        // When
        let document = PirateBayDestination.trailManifestDocument
        // Then
        guard committed != document else {
            // What `crashtrail manifest add` reads is a manifest that works.
            #expect(try Manifest(contentsOf: url).destinations.count == derived().destinations.count)
            return
        }
        let mode = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"]
        if mode == "failed" || mode == "all" {
            try document.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("piratebay.generated.yml was recorded anew; review the diff and commit it")
        } else {
            Issue.record(
                "piratebay.generated.yml differs from the manifest PirateBayDestination describes; run SNAPSHOT_TESTING_RECORD=failed swift test --filter ManifestDriftTests and review the diff"
            )
        }
    }

    private func derived() throws -> Manifest {
        try PirateBayDestination.trailManifest()
    }

    /// A destination's fields, for a message that shows what differs.
    private static func fields(_ spec: Manifest.DestinationSpec) -> String {
        "{ url: \(spec.route?.text ?? "none"), presentation: \(spec.presentation.rawValue), requires: \(spec.requires), gate: \(spec.gate), "
            + "redact: \(spec.redact.map { $0.joined(separator: ".") }), screens: \(spec.screens) }"
    }
}
