import CrashtrailReports
import CrashtrailTestSupport
import Testing

/// A seeded population of sessions walking a shop app's screens, with a known crash probability at each transition,
/// the sessions that did not crash sampled as the recorder samples them (SPEC section 20): `paths --rate` must find the
/// planted dangerous transition, give it an interval around its rate, and mark a regression only where one was planted.
@Suite("paths --rate on a simulated population")
struct PathRateSimulationTests {
    static let screens = ["home", "search", "item", "cart", "checkout", "profile", "settings"]
    /// Where each screen may lead.
    static let moves: [String: [String]] = [
        "home": ["search", "item", "profile", "cart"], "search": ["item", "home", "item"], "item": ["cart", "home", "search", "item"],
        "cart": ["checkout", "home", "item"], "checkout": ["home", "profile"], "profile": ["settings", "home"],
        "settings": ["profile", "home"],
    ]
    static let baseline = 0.0005
    static let planted = 0.05

    /// One release's population: `sessions` sessions of 2 to 9 moves; each move crashes with its transition's risk
    /// (`risks`, else the baseline), which ends the session; a session that did not crash is sent with probability 1/4.
    static func simulate(seed: UInt64, sessions: Int, risks: [String: Double]) -> PathRates {
        var random = SplitMix64(seed: seed)
        var rates = PathRates()
        var visitsCache: [[String]: PathVisits] = [:]
        for _ in 0..<sessions {
            var path = ["home"]
            var crashed = false
            for _ in 0..<Int.random(in: 2...9, using: &random) {
                let here = path[path.count - 1]
                let options = moves[here] ?? ["home"]
                let next = options[Int.random(in: 0..<options.count, using: &random)]
                let risk = risks["\(here) → \(next)"] ?? baseline
                if next != here { path.append(next) }
                if Double.random(in: 0..<1, using: &random) < risk {
                    crashed = true
                    break
                }
            }
            let visits = visitsCache[path] ?? PathVisits(screens: path)
            visitsCache[path] = visits
            if crashed {
                rates.add(visits, PathRates.Counts(crashed: 1))
            } else if Double.random(in: 0..<1, using: &random) < 0.25 {
                rates.add(visits, PathRates.Counts(cleanSessions: 4, cleanSquares: 16, sampledTrails: 1))
            }
        }
        return rates
    }

    @Test("The planted transition ranks first among transitions, and its interval holds the planted rate")
    func plantedTransitionRanksFirst() throws {
        // Given a release whose cart → checkout crashes 100 times as often as any other transition
        let rates = Self.simulate(seed: 20_261_128, sessions: 30_000, risks: ["cart → checkout": Self.planted])

        // When
        let rows = rates.rows(minimumSessions: 30)

        // Then
        let transitions = rows.filter { $0.ranked && $0.path.kind == .transition }
        let first = try #require(transitions.first)
        #expect(first.path.description == "cart → checkout")
        #expect(first.interval.low <= Self.planted && Self.planted <= first.interval.high, "\(first.interval)")
        // The release's own rate is mostly this transition's crashes, so the lift is well above 1 but not 100.
        #expect(first.lift > 3, "\(first.lift)")
        #expect(first.scaled)
    }

    @Test("Over 20 seeds: the planted interval holds the planted rate about 95 % of the time; regressions only where planted")
    func regressionsOverManySeeds() {
        var covered = 0
        var falseRegressions = 0
        var comparisons = 0
        var found = 0
        let seeds = 20
        for seed in 0..<UInt64(seeds) {
            // Given an old release, a new one from the same population, and one where search → item became 60 times
            // riskier
            let risks = ["cart → checkout": Self.planted]
            let old = Self.simulate(seed: seed * 3 + 1, sessions: 8_000, risks: risks)
            let same = Self.simulate(seed: seed * 3 + 2, sessions: 8_000, risks: risks)
            var riskier = risks
            riskier["search → item"] = 0.03
            let changed = Self.simulate(seed: seed * 3 + 3, sessions: 8_000, risks: riskier)

            // When
            let unchangedRows = same.rows(minimumSessions: 30, baseline: old)
            let changedRows = changed.rows(minimumSessions: 30, baseline: old)

            // Then
            for row in unchangedRows where row.ranked {
                comparisons += 1
                if row.regression == true { falseRegressions += 1 }
                if row.path.description == "cart → checkout", row.interval.low <= Self.planted, Self.planted <= row.interval.high {
                    covered += 1
                }
            }
            if changedRows.contains(where: { $0.path.description == "search → item" && $0.regression == true }) { found += 1 }
        }
        // The planted regression is found in every changed release. Where nothing changed, a path is marked at most at
        // the 5 % a 95 % interval allows; rising beyond both intervals is far rarer (none over these seeds).
        #expect(found == seeds)
        #expect(Double(falseRegressions) <= 0.05 * Double(comparisons), "\(falseRegressions) of \(comparisons)")
        #expect(falseRegressions == 0, "\(falseRegressions) of \(comparisons)")
        // The planted transition's rate includes the small risk of the moves after it, so its coverage may be a little
        // below the nominal 95 %.
        #expect(Double(covered) >= 0.85 * Double(seeds), "covered \(covered) of \(seeds)")
    }
}
