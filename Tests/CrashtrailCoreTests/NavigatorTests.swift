import CrashtrailCore
import CrashtrailTestSupport
import Testing

/// The app-facing Navigator: several observers at once, anomalies reported and never thrown.
@MainActor
@Suite("Navigator")
struct NavigatorTests {
    static func manifest() throws -> Manifest {
        try Manifest(yaml: ManifestTests.valid, source: "piratebay.yml")
    }

    @Test("Several observers see every step; none displaces another; a cancelled one stops")
    func observers() throws {
        // Given
        var now: Int64 = 0
        let navigator = Navigator(manifest: try Self.manifest(), clock: { now })
        var recorded: [Int] = []
        var analytics: [String] = []
        var anomalies: [NavigationAnomaly.Kind] = []
        let first = navigator.addObserver { recorded.append($0.index) }
        navigator.addObserver { analytics.append($0.step.op.name) }
        navigator.addObserver { anomalies += $0.anomalies.map(\.kind) }
        // When
        navigator.push(Destination("item", ["id": "L-1"]))
        now = 100
        navigator.pop()
        navigator.pop()
        first.cancel()
        navigator.dismiss()
        // Then
        #expect(recorded == [0, 1, 2])
        #expect(analytics == ["push", "pop", "pop", "dismiss"])
        #expect(anomalies == [.popAtRoot, .dismissWithoutModal])
        #expect(navigator.observerCount == 2)
    }

    @Test("A custom clock that goes back never makes a trail's times go back")
    func monotonicTimes() throws {
        var now: Int64 = 500
        let navigator = Navigator(manifest: try Self.manifest(), clock: { now })
        var times: [Int64] = []
        navigator.addObserver { times.append($0.step.t) }
        navigator.push(Destination("item", ["id": "L-1"]))
        now = 100
        navigator.pop()
        #expect(times == [500, 500])
    }

    @Test("An unknown URL changes nothing and is reported")
    func unknownURL() throws {
        let navigator = Navigator(manifest: try Self.manifest(), clock: { 0 })
        let before = navigator.state
        #expect(navigator.open(url: "piratebay://nowhere").map(\.kind) == [.unknownURL])
        #expect(navigator.state == before)
    }

    @Test("A step time near Int64.max saturates the transition instead of trapping")
    func extremeTimes() throws {
        var engine = NavigationEngine(manifest: try Self.manifest())
        engine.apply(Step(t: 0, .satisfy("signedIn")))
        engine.apply(Step(t: .max - 1, .present(Destination("compose", ["id": "P-1"]))))
        let anomalies = engine.apply(Step(t: .max, .dismiss))
        #expect(anomalies.map(\.kind) == [.transitionCollision])
        #expect(anomalies.first?.detail.contains("came 1 ms after step 1") == true)
        #expect(engine.state.modals.count == 1)
    }
}
