import CrashtrailCore
import CrashtrailTestSupport

/// Makes trails that are valid replays of a manifest: realistic steps over its destinations, applied with the
/// headless `NavigationEngine`, with `final` set to the state the engine reaches, so replaying one verifies.
struct TrailMaker {
    let manifest: Manifest
    private var random: SplitMix64
    private var destinations: RandomStepGenerator

    init(manifest: Manifest, seed: UInt64) {
        self.manifest = manifest
        self.random = SplitMix64(seed: seed)
        self.destinations = RandomStepGenerator(manifest: manifest, seed: seed &+ 0x9E37_79B9)
    }

    /// A trail of `count` steps for a session that started at `started` in process `pid`.
    mutating func trail(steps count: Int, app: Trail.AppInfo, sessionID: String, started: String, pid: Int64) -> Trail {
        var engine = NavigationEngine(manifest: manifest)
        var steps: [Step] = []
        var t: Int64 = 0
        for _ in 0..<count {
            t += Int64.random(in: 300...4000, using: &random)
            let step = Step(t: t, nextOperation(engine.state))
            engine.apply(step)
            steps.append(step)
        }
        return Trail(app: app, session: Trail.Session(id: sessionID, started: started, pid: pid), steps: steps, final: engine.state)
    }

    private mutating func nextOperation(_ state: NavigationState) -> Step.Operation {
        let roll = Int.random(in: 0..<100, using: &random)
        let destination = destinations.destination()
        let spec = manifest.spec(named: destination.name)
        switch roll {
        case 0..<34:
            return spec?.presentation == .modal ? .present(destination) : .push(destination)
        case 34..<46:
            if let url = manifest.url(for: destination) { return .open(.url(url)) }
            return .open(.destination(destination))
        case 46..<62: return state.topStack.count > 1 ? .pop : .push(destination)
        case 62..<68: return .popToRoot
        case 68..<76: return state.modals.isEmpty ? .present(destination) : .dismiss
        case 76..<86: return .select(tab: Int64.random(in: 0..<Int64(max(1, manifest.tabs.count)), using: &random))
        case 86..<93:
            if let condition = manifest.conditions.randomElement(using: &random) { return .satisfy(condition.name) }
            return .pop
        case 93..<96:
            return state.pending == nil ? .pop : .complete(success: Bool.random(using: &random))
        default:
            if let condition = manifest.conditions.randomElement(using: &random) { return .revoke(condition.name) }
            return .pop
        }
    }
}
