import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Foundation
import Testing

/// The recorder keeps a bounded trail whose replay gives exactly the same final state as the whole session.
@MainActor
@Suite("Trail recorder")
struct TrailRecorderTests {
    static let app = Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412")
    static let session = Trail.Session(id: "00000000-0000-4000-8000-000000000001", started: "2026-11-01T00:00:00Z", pid: 1)

    static func manifests() throws -> [Manifest] {
        let lighthouse = """
            app: org.example.lighthouse
            root: splash
            transitions: { modal: 0 }
            conditions:
              paired: { flow: pairing }
            destinations:
              splash:    { url: "lighthouse://splash", gate: true }
              dashboard: { url: "lighthouse://dashboard", gate: true }
              lamp:      { url: "lighthouse://lamps/{serial}", requires: paired }
              schedule:  { url: "lighthouse://lamps/{serial}/schedule/{day:int}" }
              settings:  { url: "lighthouse://settings" }
              pairing:   { url: "lighthouse://pair", presentation: modal }
              help:      { url: "lighthouse://help?topic={topic}", presentation: modal }
            """
        var manifests = [try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml"), try Manifest(yaml: lighthouse)]
        manifests.append(try ConformanceSuite.required().manifest(named: "piratebay.yml"))
        return manifests
    }

    /// The recorders' redaction key: a destination the manifest lacks has its values replaced (SPEC 18), so what a
    /// recorder keeps is the steps redacted with it.
    static let key: [UInt8] = Array(repeating: 9, count: 32)

    /// Records `steps` through a Navigator with `limits` and returns the trail and the live final state.
    static func record(_ steps: [Step], manifest: Manifest, limits: TrailRecorder.Limits) -> (Trail, NavigationState) {
        var now: Int64 = 0
        let navigator = Navigator(manifest: manifest, clock: { now })
        let recorder = TrailRecorder(navigator: navigator, app: app, session: session, limits: limits, redactionKey: key)
        for step in steps {
            now = step.t
            navigator.perform(step.op)
        }
        return (recorder.trail(stampingFinal: true), navigator.state)
    }

    @Test("Property: a truncated trail replays to the same final state as the whole session (3,000 sequences)")
    func truncationPreservesFinalState() throws {
        var checked = 0
        var truncated = 0
        for (manifestIndex, manifest) in try Self.manifests().enumerated() {
            for seed in 0..<1_000 {
                // Given
                var generator = RandomStepGenerator(manifest: manifest, seed: UInt64(seed * 7 + manifestIndex))
                let steps = generator.steps(count: 1 + seed % 120)
                let limits = TrailRecorder.Limits(maximumSteps: 1 + seed % 37, maximumBytes: 200 + (seed * 97) % 3_000)
                // When
                let (trail, live) = Self.record(steps, manifest: manifest, limits: limits)
                var replay = NavigationEngine(manifest: manifest, state: trail.base)
                replay.apply(trail.steps)
                var whole = NavigationEngine(manifest: manifest)
                whole.apply(steps)
                // Then
                let redactor = Redactor(manifest: manifest, key: Self.key)
                #expect(replay.state == redactor.redact(live), "seed \(seed), manifest \(manifestIndex)")
                #expect(whole.state == live)
                #expect(trail.steps.count <= limits.maximumSteps)
                #expect(Int(trail.dropped) + trail.steps.count == steps.count)
                #expect(trail.steps == Array(steps.map(redactor.redact).suffix(trail.steps.count)))
                #expect(try Trail(json: trail.canonicalJSON) == trail)
                #expect(trail.canonicalJSON == CanonicalJSON.bytes(of: trail.jsonValue))
                checked += 1
                if trail.dropped > 0 { truncated += 1 }
            }
        }
        #expect(checked >= 2_000)
        #expect(truncated > checked / 2, "most generated sessions must actually be truncated")
    }

    @Test("The byte limit bounds the kept steps' JSON")
    func byteLimit() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay)
        var generator = RandomStepGenerator(manifest: manifest, seed: 42)
        let steps = generator.steps(count: 2_000)
        let (trail, _) = Self.record(steps, manifest: manifest, limits: .init(maximumSteps: 10_000, maximumBytes: 4_096))
        let bytes = trail.steps.reduce(0) { $0 + CanonicalJSON.bytes(of: $1.jsonValue).count + 1 }
        #expect(bytes <= 4_096)
        #expect(trail.steps.count > 20)
    }

    @Test("A step inside a transition started by a dropped step is dropped too, so replay cannot differ")
    func transitionAcrossTheCut() throws {
        // Given: a present at t=100 starts a 500 ms transition; a dismiss at t=300 collides live.
        let manifest = try Manifest(yaml: SpecManifests.piratebay)
        let steps = [
            Step(t: 0, .satisfy("signedIn")),
            Step(t: 100, .present(Destination("compose", ["id": "P-1"]))),
            Step(t: 300, .dismiss),
            Step(t: 2_000, .push(Destination("item", ["id": "L-1"]))),
        ]
        // When: the recorder may keep only two steps.
        let (trail, live) = Self.record(steps, manifest: manifest, limits: .init(maximumSteps: 2, maximumBytes: 10_000))
        // Then: the colliding dismiss went with the present that made it collide.
        #expect(trail.steps == [steps[3]])
        #expect(trail.dropped == 3)
        var replay = NavigationEngine(manifest: manifest, state: trail.base)
        replay.apply(trail.steps)
        #expect(replay.state == live)
        #expect(live.modals.count == 1)
    }

    @Test("Without truncation the trail starts at launch and has no base")
    func noTruncation() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay)
        let (trail, live) = Self.record([Step(t: 5, .push(Destination("item", ["id": "L-1"])))], manifest: manifest, limits: .init())
        #expect(trail.base == nil)
        #expect(trail.dropped == 0)
        #expect(trail.final == live)
    }

    @Test("Steps handed to the recorder directly give the same trail as the same steps through a Navigator (300 sequences)")
    func directStepsMatchNavigator() throws {
        for (manifestIndex, manifest) in try Self.manifests().enumerated() {
            for seed in 0..<100 {
                // Given
                var generator = RandomStepGenerator(manifest: manifest, seed: UInt64(seed * 13 + manifestIndex))
                let steps = generator.steps(count: 1 + seed % 90)
                let limits = TrailRecorder.Limits(maximumSteps: 1 + seed % 29, maximumBytes: 300 + (seed * 71) % 2_000)
                // When
                let recorder = TrailRecorder(
                    manifest: manifest, app: Self.app, session: Self.session, limits: limits, redactionKey: Self.key)
                for step in steps { try recorder.record(step) }
                let (viaNavigator, live) = Self.record(steps, manifest: manifest, limits: limits)
                // Then (both redact a destination the manifest lacks, with the same key)
                #expect(recorder.trail(stampingFinal: true) == viaNavigator, "seed \(seed), manifest \(manifestIndex)")
                #expect(recorder.currentState == Redactor(manifest: manifest, key: Self.key).redact(live))
                #expect(recorder.recordedStepCount == steps.count)
            }
        }
    }

    @Test("A step whose time goes back is refused, naming the step, and nothing is recorded")
    func directStepGoingBackIsRefused() throws {
        // Given
        let manifest = try Manifest(yaml: SpecManifests.piratebay)
        let recorder = TrailRecorder(manifest: manifest, app: Self.app, session: Self.session)
        try recorder.record(Step(t: 1_000, .push(Destination("item", ["id": "L-1"]))))
        // When
        let error = #expect(throws: TrailError.self) { try recorder.record(Step(t: 999, .pop)) }
        // Then
        #expect(error?.code == .nonMonotonicTime)
        #expect(error?.step == 1)
        #expect(error?.description.contains("999") == true)
        #expect(recorder.recordedStepCount == 1)
        #expect(recorder.trail().steps.count == 1)
    }
}
