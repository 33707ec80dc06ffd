import CrashtrailCore
import CrashtrailTestSupport

/// A seeded generator of realistic trails for the benchmark: mostly pushes and pops, some presents,
/// dismisses, tab switches, deep links and flows, with gaps that sometimes collide with a transition.
struct BenchTrailGenerator {
    let manifest: Manifest
    /// The percentage of steps that open a deep link on top of the usual mix (0 for the usual mix alone).
    ///
    /// These links fill string placeholders with values that need percent-encoding too, and one in ten names
    /// no destination, as crash-report trails do.
    let urlShare: Int
    private var random: SplitMix64

    init(manifest: Manifest, seed: UInt64, urlShare: Int = 0) {
        self.manifest = manifest
        self.urlShare = urlShare
        self.random = SplitMix64(seed: seed)
    }

    private mutating func next() -> UInt64 {
        random.next()
    }

    private mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func trail(steps count: Int) -> Trail {
        var steps: [Step] = []
        steps.reserveCapacity(count)
        var t: Int64 = 0
        for _ in 0..<count {
            t += below(10) < 2 ? Int64(below(400)) : Int64(400 + below(4_000))
            steps.append(Step(t: t, operation()))
        }
        return Trail(
            app: Trail.AppInfo(bundleID: manifest.app, version: "1.0", build: "1"),
            session: Trail.Session(id: "00000000-0000-4000-8000-00000000BE4C", started: "2026-11-01T00:00:00Z", pid: 1),
            steps: steps)
    }

    private mutating func destination(strings: [String] = []) -> Destination {
        let spec = manifest.destinations[below(manifest.destinations.count)]
        var payload: [String: JSONValue] = [:]
        for placeholder in spec.route?.placeholders ?? [] {
            let value: JSONValue
            if placeholder.type == .int {
                value = .int(Int64(below(100)))
            } else if !strings.isEmpty {
                value = .string(strings[below(strings.count)] + String(below(1000)))
            } else {
                value = .string("L-\(below(1000))")
            }
            var keys = placeholder.path
            let last = keys.removeLast()
            if keys.isEmpty {
                payload[last] = value
            } else {
                payload[keys[0]] = .object([last: value])
            }
        }
        return Destination(spec.name, payload)
    }

    /// A deep link from the URL-heavy mix.
    private mutating func link() -> String {
        if below(10) == 0 {
            let scheme = manifest.destinations.lazy.compactMap { $0.route?.scheme }.first ?? "app"
            return "\(scheme)://nowhere/\(below(100))"
        }
        let target = destination(strings: ["L-", "P-", "a b/c", "ø", "100%"])
        return manifest.url(for: target) ?? "piratebay://nowhere"
    }

    private mutating func operation() -> Step.Operation {
        if urlShare > 0, below(100) < urlShare { return .open(.url(link())) }
        switch below(100) {
        case 0..<35: return .push(destination())
        case 35..<42: return .present(destination())
        case 42..<50:
            let target = destination()
            return .open(.url(manifest.url(for: target) ?? "piratebay://nowhere"))
        case 50..<72: return .pop
        case 72..<75: return .popToRoot
        case 75..<83: return .dismiss
        case 83..<90: return .select(tab: Int64(below(3)))
        case 90..<96: return .complete(success: below(4) > 0)
        case 96..<98: return .satisfy(manifest.conditions.first?.name ?? "signedIn")
        default: return .revoke(manifest.conditions.first?.name ?? "signedIn")
        }
    }
}
