public import CrashtrailCore
import Foundation

/// Generates trails that look like real sessions of an app described by a manifest.
///
/// Popular items revisited (Zipf), think times (log-normal, with quick back taps and slow sign-ins), tab
/// switches, modal flows that satisfy conditions, deep links, the odd gate and sign-out, and a bounded recorder
/// that dropped early steps.
/// Every step is applied to a headless ``NavigationEngine``, so the choices follow the app's real state and
/// `final` is the state the app would have stamped at the crash.
public struct RealisticTrailGenerator {
    public let manifest: Manifest
    private var random: SplitMix64
    private var pools: [String: [JSONValue]] = [:]
    private let words = [
        "rum", "parrot", "compass", "map", "spyglass", "cutlass", "lantern", "rope", "anchor", "sail", "boots", "hat",
        "barrel", "chest", "coin", "flag", "hook", "cannon", "deck", "keel",
    ]

    public init(manifest: Manifest, seed: UInt64) {
        self.manifest = manifest
        random = SplitMix64(seed: seed)
    }

    /// A trail of exactly `count` kept steps.
    public mutating func trail(steps count: Int) -> Trail {
        let uuid = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let hex = uuid.map { byte in String(byte, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        let id = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
        let day = Int.random(in: 1...28, using: &random)
        let started =
            "2026-11-\(day < 10 ? "0" : "")\(day)T\(two(Int.random(in: 0...23, using: &random))):\(two(Int.random(in: 0...59, using: &random))):\(two(Int.random(in: 0...59, using: &random)))Z"
        var engine = NavigationEngine(manifest: manifest)
        // A bounded recorder keeps the last steps: some sessions were longer, their first steps were dropped.
        let dropped = random.unit() < 0.3 ? Int.random(in: 1...count, using: &random) : 0
        var t: Int64 = 0
        var base: NavigationState?
        var steps: [Step] = []
        for index in 0..<(dropped + count) {
            if index == dropped, dropped > 0 { base = engine.state }
            let op = nextOperation(engine.state)
            t += thinkTime(before: op, state: engine.state)
            let step = Step(t: t, op)
            _ = engine.apply(step)
            if index >= dropped { steps.append(step) }
        }
        return Trail(
            app: Trail.AppInfo(
                bundleID: manifest.app, version: "3.1.\(Int.random(in: 0...4, using: &random))",
                build: String(Int.random(in: 400...480, using: &random))),
            session: Trail.Session(id: id, started: started, pid: Int64.random(in: 300...99_999, using: &random)),
            base: base, dropped: Int64(dropped), steps: steps, final: engine.state)
    }

    private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private mutating func thinkTime(before op: Step.Operation, state: NavigationState) -> Int64 {
        switch op {
        case .complete:
            // Typing a passcode or signing in takes a while.
            return Int64(exp(log(9_000) + 0.5 * random.normal()))
        case .pop where random.unit() < 0.35, .dismiss where random.unit() < 0.35:
            return Int64.random(in: 60...450, using: &random)
        default:
            return Int64(min(exp(log(2_400) + 1.0 * random.normal()), 600_000))
        }
    }

    private mutating func nextOperation(_ state: NavigationState) -> Step.Operation {
        let roll = random.unit()
        if let modal = state.modals.last, let root = modal.first {
            if manifest.isFlow(root.name) {
                if roll < 0.82 { return .complete(success: true) }
                if roll < 0.87 { return .complete(success: false) }
                return .dismiss
            }
            if roll < 0.5 { return .dismiss }
            if roll < 0.75 { return .push(pushable()) }
            return modal.count > 1 ? .pop : .dismiss
        }
        let depth = state.topStack.count
        switch roll {
        case ..<0.36: return .push(pushable())
        case ..<0.58: return depth > 1 ? .pop : .push(pushable())
        case ..<0.68:
            guard manifest.hasTabs else { return .pop }
            let tab = random.zipf(manifest.tabs.count, s: 1.2)
            return .select(tab: Int64(tab == (state.tab ?? 0) ? (tab + 1) % manifest.tabs.count : tab))
        case ..<0.74:
            let target = pushable()
            if let url = manifest.url(for: target) { return .open(.url(url)) }
            return .open(.destination(target))
        case ..<0.77: return .open(.destination(pushable()))
        case ..<0.83:
            let app = manifest
            if let modal = destination(where: { $0.presentation == .modal && !app.isFlow($0.name) }) {
                return .open(.destination(modal))
            }
            return .push(pushable())
        case ..<0.87: return depth > 2 ? .popToRoot : .pop
        case ..<0.93:
            let app = manifest
            if let plain = destination(where: {
                ($0.route?.placeholders ?? []).isEmpty && app.tabIndex(of: $0.name) == nil && !$0.gate && $0.presentation == .push
            }) {
                return .push(plain)
            }
            return .push(pushable())
        case ..<0.935:
            if let gate = destination(where: \.gate) { return .open(.destination(gate)) }
            return .pop
        case ..<0.95:
            if let condition = manifest.conditions.randomElement(using: &random), state.conditions.contains(condition.name) {
                return .revoke(condition.name)
            }
            return .pop
        default:
            guard manifest.hasTabs else { return .pop }
            return .select(tab: Int64(random.zipf(manifest.tabs.count, s: 1.2)))
        }
    }

    /// A pushed screen with parameters, drawn by popularity.
    private mutating func pushable() -> Destination {
        let candidates = manifest.destinations.filter {
            !($0.route?.placeholders ?? []).isEmpty && $0.presentation == .push && !$0.gate
        }
        guard !candidates.isEmpty else { return Destination(manifest.destinations.first?.name ?? "home") }
        let spec = candidates[random.zipf(candidates.count, s: 0.8)]
        var payload: [String: JSONValue] = [:]
        for placeholder in spec.route?.placeholders ?? [] {
            let value = value(for: placeholder, in: spec.name)
            Destination.setValue(value, atPath: placeholder.path[...], in: &payload)
        }
        return Destination(spec.name, payload)
    }

    private mutating func destination(where predicate: (Manifest.DestinationSpec) -> Bool) -> Destination? {
        let candidates = manifest.destinations.filter(predicate)
        guard let spec = candidates.randomElement(using: &random) else { return nil }
        var payload: [String: JSONValue] = [:]
        for placeholder in spec.route?.placeholders ?? [] {
            let value = value(for: placeholder, in: spec.name)
            Destination.setValue(value, atPath: placeholder.path[...], in: &payload)
        }
        return Destination(spec.name, payload)
    }

    /// A value from the placeholder's pool (shared by key, so an account's IBAN recurs across screens), drawn
    /// by popularity; the pool's size and values depend on what the key looks like.
    private mutating func value(for placeholder: RouteTemplate.Placeholder, in name: String) -> JSONValue {
        // Accounts, cards, months and currencies recur across screens; other values belong to their screen.
        let shared: Set<String> = ["iban", "from", "last4", "month", "currency"]
        let path = placeholder.path.joined(separator: ".")
        let key = shared.contains(placeholder.path.last ?? "") ? path : name + "." + path
        if pools[key] == nil { pools[key] = makePool(key: key, placeholder: placeholder, name: name) }
        let pool = pools[key] ?? [.string("x")]
        return pool[random.zipf(pool.count)]
    }

    private mutating func makePool(key: String, placeholder: RouteTemplate.Placeholder, name: String) -> [JSONValue] {
        let leaf = placeholder.path.last ?? key
        if placeholder.type == .int {
            if leaf.hasPrefix("last") { return (0..<3).map { _ in .int(Int64.random(in: 1_000...9_999, using: &random)) } }
            return (1...40).map { .int(Int64($0)) }
        }
        switch leaf {
        case "iban", "from":
            return (0..<3).map { _ in .string("DE" + (0..<20).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()) }
        case "month": return (1...12).reversed().map { .string("2026-\($0 < 10 ? "0" : "")\($0)") }
        case "currency": return ["EUR", "USD", "GBP", "CHF", "JPY", "SEK"].map { .string($0) }
        case "text", "q", "query", "topic": return words.map { .string($0) }
        case "ticket": return (0..<4).map { _ in .string("T-\(Int.random(in: 100_000...999_999, using: &random))") }
        default:
            let letter = (leaf == "to" ? "P" : name.prefix(1).uppercased())
            return (0..<150).map { _ in .string("\(letter)-\(Int.random(in: 1_000...99_999, using: &random))") }
        }
    }

}
