import CrashtrailCore
import CrashtrailRecording
import CrashtrailReplay
import CrashtrailTesting
import PirateBay
import SnapshotTesting
import Testing

/// How an app team pins a crash replay with swift-snapshot-testing: record the path with the app's own typed
/// destinations (or paste a trail from a crash report), then `assertSnapshot(of:as: .replay(...))`.
///
/// Golden files live in `__Snapshots__/GoldenReplayTests/`. After an intended change, re-record with
/// `SNAPSHOT_TESTING_RECORD=failed swift test` and review the diff; CI runs with `SNAPSHOT_TESTING_RECORD=never`.
@MainActor
@Suite("PirateBay golden replays")
struct GoldenReplayTests {
    /// The path to a crash in the order composer: browse, open an order, write to a seller (sign in first),
    /// and a second sheet requested during the first's animation.
    func checkoutCrashTrail() throws -> Trail {
        let manifest = try PirateBay.manifest()
        var now: Int64 = 0
        let navigator = Navigator(manifest: manifest, clock: { now })
        let recorder = TrailRecorder(
            navigator: navigator, app: .init(bundleID: PirateBay.bundleID, version: "3.1.0", build: "412"),
            session: .init(id: "0B9E8D7C-6A5F-4E3D-9C2B-1A0F9E8D7C6B", started: "2026-11-07T12:00:00Z", pid: 5150),
            // The manifest redacts search text: a fixed key (an install's) keeps the stand-ins, and so the golden, stable.
            redactionKey: Array(repeating: 7, count: 32))
        now = 800
        navigator.select(tab: 1)
        now = 2_100
        try navigator.push(PirateBayDestination.page(2))
        now = 3_900
        try navigator.push(PirateBayDestination.item(id: "L-42"))
        now = 6_000
        try navigator.push(PirateBayDestination.seller(id: "P-7"))
        now = 8_500
        try navigator.present(PirateBayDestination.compose(id: "P-7"))
        now = 15_000
        navigator.complete(success: true)
        now = 15_300
        try navigator.present(PirateBayDestination.order(id: "A 17"))
        now = 21_000
        try navigator.push(PirateBayDestination.search(text: "doubloons"))
        return recorder.trail(stampingFinal: true)
    }

    @Test("the checkout crash replays to its pinned screens, links and anomalies")
    func checkoutCrash() throws {
        let trail = try checkoutCrashTrail()
        let manifest = try PirateBay.manifest()
        assertSnapshot(of: trail, as: .replay(manifest: manifest, format: .text, report: "checkout-crash"), named: "checkout-crash")
        assertSnapshot(of: trail, as: .replay(manifest: manifest, format: .simctl, report: "checkout-crash"), named: "checkout-crash")
    }

    @Test("a trail pasted from a crash report pins its JSON replay")
    func pastedTrail() throws {
        // The trail of SPEC section 5, as `crashtrail trail decode` prints it from a report.
        let json = #"""
            {"app":{"build":"412","bundleID":"com.example.piratebay","version":"3.1.0"},"dropped":0,"session":{"id":"4D1FE12F-9EEE-4537-8DF6-791B7586D554","pid":31922,"started":"2026-11-02T14:45:05Z"},"steps":[{"op":"push","t":1258,"to":{"item":{"id":"L-65586"}}},{"op":"pop","t":6750},{"op":"open","t":9100,"url":"piratebay://item/L-9"},{"op":"select","t":9900,"tab":1},{"op":"present","t":12000,"to":{"compose":{"id":"P-6627"}}},{"op":"complete","success":true,"t":20000},{"condition":"signedIn","op":"revoke","t":26000}],"version":1}
            """#
        let trail = try Trail(json: Array(json.utf8))
        assertSnapshot(
            of: trail, as: .replay(manifest: try PirateBay.manifest(), format: .json, report: "spec-example"), named: "spec-example")
    }
}
