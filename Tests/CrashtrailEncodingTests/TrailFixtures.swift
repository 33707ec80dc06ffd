import CrashtrailCore
import CrashtrailTestSupport
import Foundation

/// Manifests and seeded trails for the encoding tests.
enum TrailFixtures {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let pirateBay = manifest("Samples/PirateBay/Sources/PirateBay/piratebay.yml")
    static let harbor = manifest("Samples/Harbor/harbor.yml")

    static func manifest(_ relativePath: String) -> Manifest {
        do {
            return try Manifest(contentsOf: packageRoot.appendingPathComponent(relativePath))
        } catch {
            fatalError("the sample manifest \(relativePath) does not load: \(error)")
        }
    }

    /// A trail over `manifest` with steps from the shared random step generator, plus the variations the
    /// codec must carry exactly: bases, finals (replayed and arbitrary), unusual strings, numbers and payloads.
    static func randomTrail(manifest: Manifest, seed: UInt64, maximumSteps: Int = 40) -> Trail {
        var random = SplitMix64(seed: seed ^ 0x5EED)
        var stepGenerator = RandomStepGenerator(manifest: manifest, seed: seed)
        var steps = stepGenerator.steps(count: Int.random(in: 0...maximumSteps, using: &random))
        // Rewrite some steps to carry strings and payloads the generator does not make.
        for index in steps.indices where Int.random(in: 0..<6, using: &random) == 0 {
            let destination = Destination(
                ["item", "profile", "search", "ünïcode", "e\u{301}"].randomElement(using: &random) ?? "item",
                randomPayload(&random, depth: 0))
            steps[index].op = Bool.random(using: &random) ? .push(destination) : .open(.destination(destination))
        }
        if Int.random(in: 0..<4, using: &random) == 0, !steps.isEmpty {
            steps[Int.random(in: 0..<steps.count, using: &random)].op = .open(.url(randomString(&random)))
        }
        let app =
            Int.random(in: 0..<5, using: &random) == 0
            ? Trail.AppInfo(bundleID: "org.example.unknown", version: randomString(&random), build: "")
            : Trail.AppInfo(bundleID: manifest.app, version: "3.1.0", build: String(Int.random(in: 0...9_999, using: &random)))
        let sessionID: String
        switch Int.random(in: 0..<4, using: &random) {
        case 0: sessionID = "4D1FE12F-9EEE-4537-8DF6-791B7586D554"
        case 1: sessionID = "4d1fe12f-9eee-4537-8df6-791b7586d554"
        case 2: sessionID = "4d1fE12F-9EEE-4537-8DF6-791B7586D554"
        default: sessionID = randomString(&random)
        }
        let started =
            [
                "2026-11-02T14:45:05Z", "2026-02-30T10:00:00Z", "2026-11-02T14:45:05.120Z", "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59Z", "1969-12-31T23:59:60Z", "", "yesterday",
            ].randomElement(using: &random) ?? ""
        var engine = NavigationEngine(manifest: manifest)
        var base: NavigationState?
        if Bool.random(using: &random) {
            var baseGenerator = RandomStepGenerator(manifest: manifest, seed: seed &+ 1)
            _ = engine.apply(baseGenerator.steps(count: 12))
            base = Int.random(in: 0..<4, using: &random) == 0 ? manifest.launchState : engine.state
        }
        var final: NavigationState?
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            var replay = NavigationEngine(manifest: manifest, state: base ?? manifest.launchState)
            _ = replay.apply(steps)
            final = replay.state
        case 1:
            var state = base ?? manifest.launchState
            state.conditions.insert(randomString(&random))
            state.modals.append([Destination("compose", ["id": .string(randomString(&random))])])
            state.pending = PendingDestination(Destination("rumShop"), mode: .open)
            final = state
        default: final = nil
        }
        return Trail(
            app: app,
            session: Trail.Session(id: sessionID, started: started, pid: Int64.random(in: -5...Int64.max, using: &random)),
            base: base, dropped: Int64.random(in: 0...3, using: &random) == 0 ? Int64.random(in: 1...Int64.max, using: &random) : 0,
            steps: steps, final: final)
    }

    static func randomString(_ random: inout SplitMix64) -> String {
        let pieces = [
            "L-", "65586", "007", "0", "DE89370400440532013000", "a b/c", "ø", "e\u{301}", "é", "🏴‍☠️", "\u{0}", "\n", "\"",
            "\\", "piratebay://item/L-9", "%20", "\u{7F}", "12345678901234567890123456789012345678901234567890123456789012345",
        ]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    static func randomPayload(_ random: inout SplitMix64, depth: Int) -> [String: JSONValue] {
        var payload: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            payload[["id", "_0", "text", "rawValue", "ключ", "e\u{301}"].randomElement(using: &random) ?? "id"] =
                randomValue(&random, depth: depth + 1)
        }
        return payload
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int([0, -1, 1, Int64.min, Int64.max, 42, -65_586].randomElement(using: &random) ?? 0)
        case 3, 4: return .string(randomString(&random))
        case 5: return .object(randomPayload(&random, depth: depth))
        default: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        }
    }

    /// A 2,000-step trail whose destinations repeat, every seventh push made a printed deep link to its destination,
    /// with its replayed final state; from the launch state, or (even seeds) with it as the base.
    static func longTrailWithPrintedLinks(manifest: Manifest, seed: UInt64) -> Trail {
        var generator = RandomStepGenerator(manifest: manifest, seed: seed)
        var steps = generator.steps(count: 2_000)
        for index in steps.indices where index % 7 == 0 {
            if case .push(let destination) = steps[index].op, let url = manifest.url(for: destination) {
                steps[index].op = .open(.url(url))
            }
        }
        var engine = NavigationEngine(manifest: manifest)
        engine.apply(steps)
        return Trail(
            app: Trail.AppInfo(bundleID: manifest.app, version: "3.1.0", build: "412"),
            session: Trail.Session(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05Z", pid: 7),
            base: seed.isMultiple(of: 2) ? manifest.launchState : nil, steps: steps, final: engine.state)
    }

    /// A realistic 100-step trail over PirateBay: popular items revisited, tab switches, a sign-in flow.
    static func hundredStepTrail() -> Trail {
        var random = SplitMix64(seed: 100)
        var steps: [Step] = []
        var t: Int64 = 0
        let items = (0..<12).map { _ in "L-\(Int.random(in: 10_000...99_999, using: &random))" }
        for index in 0..<100 {
            t += Int64.random(in: 300...6_000, using: &random)
            let op: Step.Operation
            switch index % 10 {
            case 0, 3, 6:
                op = .push(
                    Destination(
                        "item", ["id": .string(items[Int.random(in: 0..<4, using: &random) * Int.random(in: 1...3, using: &random)])]))
            case 1, 4, 7: op = .pop
            case 2: op = .select(tab: Int64.random(in: 0...1, using: &random))
            case 5: op = .open(.url("piratebay://search?q=rum"))
            case 8: op = .push(Destination("profile", ["id": .string("P-\(Int.random(in: 1...40, using: &random))")]))
            default: op = .popToRoot
            }
            steps.append(Step(t: t, op))
        }
        var engine = NavigationEngine(manifest: pirateBay)
        _ = engine.apply(steps)
        return Trail(
            app: Trail.AppInfo(bundleID: pirateBay.app, version: "3.1.0", build: "412"),
            session: Trail.Session(id: "4D1FE12F-9EEE-4537-8DF6-791B7586D554", started: "2026-11-02T14:45:05Z", pid: 31_922),
            steps: steps, final: engine.state)
    }
}
