import CrashtrailCore
import CrashtrailReports
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 15: a trail inferred from the screens a crash reporter's breadcrumbs saw, by section 11's rules.
@Suite("Trails inferred from breadcrumbs")
struct TrailInferenceTests {
    /// A manifest whose every destination names the screen `<Name>ViewController` (and the module-prefixed form).
    static func withScreens(_ yaml: String, source: String) throws -> Manifest {
        let parts = yaml.split(separator: "\ndestinations:", maxSplits: 1)
        let named = parts[1].replacing(/\n  (\w+):(\s+)\{/) { match in
            "\n  \(match.output.1):\(match.output.2){ screen: \(Self.screen(of: String(match.output.1))),"
        }
        return try Manifest(yaml: parts[0] + "\ndestinations:" + named, source: source)
    }

    static func screen(of destination: String) -> String {
        destination.prefix(1).uppercased() + destination.dropFirst() + "ViewController"
    }

    /// The sample app's manifest (more destinations than the SPEC's example).
    static let piratebay = Result {
        let file = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml")
        return try withScreens(String(contentsOf: file, encoding: .utf8), source: "piratebay.yml")
    }
    static let app = Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1", build: "7")
    /// 2026-11-02T14:45:05Z.
    static let start: Int64 = 1_793_630_705_000

    static func infer(_ sightings: [ScreenSighting], manifest: Manifest? = nil) throws -> Trail? {
        TrailInference.trail(
            from: sightings, manifest: try manifest ?? piratebay.get(), app: app, sessionID: "R-1", pid: 42, fallbackStart: nil)
    }

    static func sighting(_ destination: String, at seconds: Int64, presented: Bool = false, prefix: String = "") -> ScreenSighting {
        ScreenSighting(screen: prefix + screen(of: destination), time: start + seconds * 1000, presented: presented)
    }

    static func ops(_ trail: Trail?) -> [String] {
        (trail?.steps ?? []).map { step in
            switch step.op {
            case .push(let to): "push \(to.name)"
            case .present(let to): "present \(to.name)"
            case .select(let tab): "select \(tab)"
            case .satisfy(let condition): "satisfy \(condition)"
            default: step.op.name
            }
        }
    }

    @Test("Each rule of section 11: push, present, pop back, pop to the root, select a tab, reset by a gate")
    func rules() throws {
        // Given the screens a user saw, as a reporter names them
        let trail = try Self.infer([
            Self.sighting("home", at: 0),  // the launch screen: nothing to do
            Self.sighting("item", at: 1, prefix: "PirateBay."),  // pushed, matched without the module
            Self.sighting("profile", at: 2),
            Self.sighting("item", at: 3),  // back to it: one pop
            Self.sighting("settings", at: 4, presented: true),  // the reporter says it was presented
            Self.sighting("item", at: 5),  // under the modal: dismissed down to it
            Self.sighting("seller", at: 6),
            Self.sighting("home", at: 7),  // the root of the top stack: popToRoot
            Self.sighting("marketplace", at: 8),  // a tab root: select
            Self.sighting("welcome", at: 9),  // a gate: push
        ])
        // Then the steps are the fewest those rules give
        #expect(
            Self.ops(trail) == [
                "push item", "push profile", "pop", "present settings", "dismiss", "push seller", "popToRoot", "select 1",
                "push welcome",
            ])
        #expect(trail?.session.started == "2026-11-02T14:45:05Z")
        #expect(trail?.steps.map(\.t) == [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000])
    }

    @Test("Conditions a screen needs were held, and a flow on top that grants one was completed")
    func conditions() throws {
        // Given a user who met the login flow, then saw a screen that needs signing in
        let trail = try Self.infer([
            Self.sighting("login", at: 1), Self.sighting("downloadUserData", at: 2), Self.sighting("rumShop", at: 3),
        ])
        // Then the flow completed before the screen, and a condition no flow showed is satisfied
        #expect(Self.ops(trail) == ["present login", "complete", "push downloadUserData", "satisfy ageVerified", "push rumShop"])
    }

    @Test("A value no breadcrumb carries is unknown: null in the payload")
    func unknownValues() throws {
        let trail = try Self.infer([Self.sighting("order", at: 1), Self.sighting("page", at: 2)])
        #expect(trail?.steps.first?.op == .push(Destination("order", ["id": .object(["rawValue": .null])])))
        #expect(trail?.steps.last?.op == .push(Destination("page", ["_0": .null])))
    }

    @Test("Steps that would collide with a running modal transition move to its end")
    func transitions() throws {
        // Given two modals and a dismissal 100 ms apart, within the 500 ms transition
        let trail = try Self.infer([
            ScreenSighting(screen: "SettingsViewController", time: Self.start, presented: true),
            ScreenSighting(screen: "LoginViewController", time: Self.start + 100),
            ScreenSighting(screen: "SettingsViewController", time: Self.start + 200),
        ])
        // Then each starts when the one before has ended, so replay reaches every screen
        #expect(trail?.steps.map(\.t) == [0, 500, 1000])
        var engine = NavigationEngine(manifest: try Self.piratebay.get())
        let anomalies = engine.apply(trail?.steps ?? [])
        #expect(anomalies.isEmpty)
        #expect(engine.state.topDestination?.name == "settings")
    }

    @Test("Breadcrumbs that name no screen of the manifest give no trail; unknown ones are skipped")
    func unknownScreens() throws {
        #expect(try Self.infer([ScreenSighting(screen: "UINavigationController"), ScreenSighting(screen: "UIAlertController")]) == nil)
        #expect(try Self.infer([]) == nil)
        let trail = try Self.infer([ScreenSighting(screen: "UINavigationController"), Self.sighting("item", at: 2)])
        #expect(Self.ops(trail) == ["push item"])
        // With no time at all, the session starts at the fallback, and every step is at 0
        let untimed = TrailInference.trail(
            from: [ScreenSighting(screen: "ItemViewController")], manifest: try Self.piratebay.get(), app: Self.app, sessionID: "R",
            pid: 0, fallbackStart: Self.start)
        #expect(untimed?.session.started == "2026-11-02T14:45:05Z")
        #expect(untimed?.steps.map(\.t) == [0])
    }

    @Test("The screen at the crash: the recorded final state's top, else the replay's")
    func crashScreen() throws {
        let manifest = try Self.piratebay.get()
        let trail = try #require(try Self.infer([Self.sighting("item", at: 1), Self.sighting("settings", at: 2, presented: true)]))
        #expect(trail.crashScreen(manifest: manifest) == "settings")
        #expect(trail.crashScreen(manifest: nil) == nil)
        var stamped = trail
        stamped.final = NavigationState(tab: 0, stacks: [[Destination("home")], [Destination("marketplace")], [Destination("myProfile")]])
        #expect(stamped.crashScreen(manifest: nil) == "home")
    }

    /// Every sample and conformance manifest written in the one-line form, with screen names added.
    static func manifests() throws -> [Manifest] {
        let root = PackageRoot.url
        let files = [
            root.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml"),
            root.appendingPathComponent("Samples/Harbor/harbor.yml"),
            try ConformanceSuite.required().folder.appendingPathComponent("piratebay.yml"),
        ]
        return try files.map { try withScreens(String(contentsOf: $0, encoding: .utf8), source: $0.path) }
    }

    @Test("Replay passes through every sighted screen in order and ends on the last, with no anomaly", arguments: 0..<3)
    func passesThroughEverySighting(manifestIndex: Int) throws {
        let manifest = try Self.manifests()[manifestIndex]
        for seed in 0..<500 {
            // Given seeded screens a reporter saw, some presented, some at the same millisecond
            var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ UInt64(manifestIndex))
            var time = Self.start
            let sightings = (0..<(1 + seed % 20)).map { _ in
                let spec = manifest.destinations.randomElement(using: &generator)!
                time += Int64.random(in: 0...900, using: &generator)
                return ScreenSighting(screen: Self.screen(of: spec.name), time: time, presented: Bool.random(using: &generator))
            }
            // Then each prefix's trail replays without anomaly to that prefix's last screen
            for count in 1...sightings.count {
                let trail = try #require(
                    TrailInference.trail(
                        from: Array(sightings.prefix(count)), manifest: manifest, app: Self.app, sessionID: "S", pid: 1, fallbackStart: nil)
                )
                var engine = NavigationEngine(manifest: manifest)
                let anomalies = engine.apply(trail.steps)
                let expected = manifest.destination(forScreen: sightings[count - 1].screen)?.name
                guard anomalies.isEmpty, engine.state.topDestination?.name == expected else {
                    Issue.record(
                        "\(manifest.source), seed \(seed), sighting \(count - 1) (\(expected ?? "?")): top \(engine.state.topDestination?.name ?? "none"), anomalies \(anomalies.map(\.kind))"
                    )
                    return
                }
                // and the steps of the prefix begin the steps of the whole
                let whole = try #require(
                    TrailInference.trail(from: sightings, manifest: manifest, app: Self.app, sessionID: "S", pid: 1, fallbackStart: nil))
                #expect(Array(whole.steps.prefix(trail.steps.count)) == trail.steps)
            }
        }
    }
}
