import CrashtrailCore
import CrashtrailRecording
import PirateBay
import Testing

/// The typed path: the app's own enum is navigated, recorded and replayed with the same rules as the generic form.
@MainActor
@Suite("PirateBay typed navigation")
struct TypedNavigationTests {
    nonisolated static let everyDestination: [PirateBayDestination] = [
        .home, .marketplace, .myProfile, .item(id: "L-42"), .order(id: "A 1"), .orderItems(id: "A1"),
        .profile(id: "P-7"), .seller(id: "P-1"), .featuredSeller, .search(text: "rum & coke/ø"), .page(-3), .settings,
        .downloadUserData, .rumShop, .optOut, .compose(id: "P-6627"), .login, .ageCheck, .welcome,
    ]

    @Test("Every typed destination has a URL that parses back to the same value", arguments: everyDestination)
    func urlRoundTrip(_ destination: PirateBayDestination) throws {
        // Given
        let manifest = try PirateBay.manifest()
        let generic = try Destination(encoding: destination)
        // When
        let url = try #require(manifest.url(for: generic), "\(generic) has no URL")
        let parsed = try #require(manifest.destination(forURL: url))
        // Then
        #expect(try parsed.decoded(as: PirateBayDestination.self) == destination)
    }

    @Test("Synthesized Codable gives the spec's destination form")
    func genericForm() throws {
        #expect(try Destination(encoding: PirateBayDestination.home).canonicalJSON == #"{"home":{}}"#)
        #expect(try Destination(encoding: PirateBayDestination.page(4)).canonicalJSON == #"{"page":{"_0":4}}"#)
        #expect(
            try Destination(encoding: PirateBayDestination.order(id: "A1")).canonicalJSON
                == #"{"order":{"id":{"rawValue":"A1"}}}"#)
    }

    @Test("Sign in first, then go where you asked; the recorded trail replays to the same state")
    func intermediateFlowRecordedAndReplayed() throws {
        // Given
        let manifest = try PirateBay.manifest()
        var now: Int64 = 0
        let navigator = Navigator(manifest: manifest, clock: { now })
        let recorder = TrailRecorder(
            navigator: navigator, app: .init(bundleID: PirateBay.bundleID, version: "3.1.0", build: "412"),
            session: .init(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05Z", pid: 31922))
        // When
        now = 1_000
        try navigator.push(PirateBayDestination.item(id: "L-9"))
        now = 2_000
        try navigator.present(PirateBayDestination.compose(id: "P-6627"))
        #expect(navigator.topDestination(as: PirateBayDestination.self) == .login)
        now = 9_000
        navigator.complete(success: true)
        // Then
        #expect(navigator.topDestination(as: PirateBayDestination.self) == .compose(id: "P-6627"))
        let trail = recorder.trail(stampingFinal: true)
        var replay = NavigationEngine(manifest: manifest, state: trail.base)
        #expect(replay.apply(trail.steps).isEmpty)
        #expect(replay.state == trail.final)
        #expect(try Trail(json: trail.canonicalJSON) == trail)
    }

    @Test("A gate closes the way back")
    func gate() throws {
        let navigator = Navigator(manifest: try PirateBay.manifest(), clock: { 0 })
        try navigator.push(PirateBayDestination.settings)
        try navigator.open(PirateBayDestination.welcome)
        #expect(navigator.state.tab == nil)
        #expect(navigator.state.stacks == [[try Destination(encoding: PirateBayDestination.welcome)]])
        #expect(navigator.pop().map(\.kind) == [.popAtRoot])
    }
}
