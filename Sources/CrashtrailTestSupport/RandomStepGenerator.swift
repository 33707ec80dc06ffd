public import CrashtrailCore

/// Generates random but well-formed steps over a manifest, for property tests: every op, known and unknown
/// destinations, URLs that match and that don't, tight times that make transitions collide.
public struct RandomStepGenerator {
    public let manifest: Manifest
    private var random: SplitMix64
    private var t: Int64 = 0

    public init(manifest: Manifest, seed: UInt64) {
        self.manifest = manifest
        self.random = SplitMix64(seed: seed)
    }

    /// `count` steps with non-decreasing times.
    public mutating func steps(count: Int) -> [Step] {
        (0..<count).map { _ in nextStep() }
    }

    /// A random destination of the manifest, with a payload that fills its template.
    public mutating func destination() -> Destination {
        guard let spec = manifest.destinations.randomElement(using: &random) else { return Destination("nowhere") }
        var payload: [String: JSONValue] = [:]
        for placeholder in spec.route?.placeholders ?? [] {
            let value: JSONValue =
                placeholder.type == .int
                ? .int(Int64.random(in: -5...99, using: &random))
                : .string(["L-1", "L-42", "P-7", "a b/c", "ø"].randomElement(using: &random) ?? "x")
            Destination.setValue(value, atPath: placeholder.path[...], in: &payload)
        }
        return Destination(spec.name, payload)
    }

    private mutating func nextStep() -> Step {
        // Mostly short gaps, sometimes inside a modal transition, sometimes long pauses.
        let gap: Int64 =
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2: Int64.random(in: 0...300, using: &random)
            case 3...8: Int64.random(in: 300...4_000, using: &random)
            default: Int64.random(in: 4_000...60_000, using: &random)
            }
        t += gap
        let conditions = manifest.conditions.map(\.name)
        let op: Step.Operation
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25: op = .push(destination())
        case 25..<35: op = .present(destination())
        case 35..<42: op = .open(.destination(destination()))
        case 42..<50:
            let target = destination()
            op = .open(.url(manifest.url(for: target) ?? "nowhere://\(target.name)"))
        case 50..<62: op = .pop
        case 62..<66: op = .popToRoot
        case 66..<75: op = .dismiss
        case 75..<82: op = .select(tab: Int64.random(in: -1...3, using: &random))
        case 82..<90: op = .complete(success: Int.random(in: 0..<4, using: &random) > 0)
        case 90..<95: op = .satisfy(conditions.randomElement(using: &random) ?? "signedIn")
        case 95..<98: op = .revoke(conditions.randomElement(using: &random) ?? "signedIn")
        default: op = .push(Destination("unknownScreen", ["n": .int(Int64.random(in: 0...3, using: &random))]))
        }
        return Step(t: t, op)
    }
}
