import CrashtrailCore
import CrashtrailReplay
import CrashtrailTesting
import Foundation
import SnapshotTesting
import Testing

/// Every sample under `Samples/` replays, in every format, to its golden file in
/// `Samples/trails-golden/golden/`, byte for byte.
///
/// Re-record after an intended change with `SNAPSHOT_TESTING_RECORD=failed swift test`; review the diff in
/// git. With `CI` set (and no `SNAPSHOT_TESTING_RECORD`) nothing is ever recorded: a missing golden file fails.
@Suite("Golden replays of the samples")
struct GoldenReplayFileTests {
    static let cases: [(GoldenSamples.Sample, ReplayFormat)] = GoldenSamples.trails.flatMap { sample in
        ReplayFormat.allCases.map { (sample, $0) }
    }

    static var recordMode: SnapshotTestingConfiguration.Record? {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] != nil && environment["SNAPSHOT_TESTING_RECORD"] == nil ? .never : nil
    }

    @Test("there are sample trails to pin")
    func samplesExist() {
        #expect(GoldenSamples.trails.count >= 5, "expected the sample trails under Samples/trails-golden/trails")
    }

    @Test("a sample's replay matches its golden file", arguments: cases)
    func matchesGolden(_ sample: GoldenSamples.Sample, _ format: ReplayFormat) throws {
        // Given a sample trail and the manifest for its app
        let trail = try Trail(json: try GoldenSamples.bytes(of: sample))
        let manifest = try ManifestSelection(choosingFrom: try GoldenSamples.manifests(), forApp: trail.app.bundleID).manifest

        // When it is replayed and rendered, then the output equals the golden file
        let failure = verifySnapshot(
            of: trail, as: .replay(manifest: manifest, format: format, report: sample.path), named: sample.name,
            record: Self.recordMode, snapshotDirectory: GoldenSamples.goldenFolder.path, testName: "replay")
        if let failure {
            Issue.record(Comment(rawValue: failure))
        }
    }
}
