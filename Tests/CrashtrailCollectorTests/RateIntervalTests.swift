import CrashtrailReports
import Testing

/// The Wilson score interval of crash rates and the like.
@Suite("Rate interval")
struct RateIntervalTests {
    /// Whether `a` is within `tolerance` of `b`.
    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-4) -> Bool {
        abs(a - b) <= tolerance
    }

    @Test func noSuccessesOfTen() {
        let interval = RateInterval.wilson(successes: 0, trials: 10)
        #expect(interval.rate == 0)
        #expect(interval.low == 0)
        // z² / n / (1 + z² / n) = 0.38415 / 1.38415
        #expect(Self.near(interval.high, 0.2775))
    }

    @Test func fiveOfTen() {
        let interval = RateInterval.wilson(successes: 5, trials: 10)
        #expect(interval.rate == 0.5)
        #expect(Self.near(interval.low, 0.2366))
        #expect(Self.near(interval.high, 0.7634))
    }

    @Test func allOfTen() {
        let interval = RateInterval.wilson(successes: 10, trials: 10)
        #expect(interval.rate == 1)
        #expect(interval.high == 1)
        #expect(Self.near(interval.low, 1 - 0.2775))
    }

    /// By hand, with z = 1.959964, z² = 3.841459, n = 1000, p̂ = 0.001:
    /// 1 + z²/n = 1.003841; centre = (0.001 + z²/2000) / 1.003841 = 0.0029096;
    /// half = z · √(0.001 · 0.999 / 1000 + z² / 4 000 000) / 1.003841 = 1.959964 · 0.0013998 / 1.003841 = 0.0027330;
    /// so 0.0001765 … 0.0056426.
    @Test func oneOfAThousand() {
        let interval = RateInterval.wilson(successes: 1, trials: 1000)
        #expect(interval.rate == 0.001)
        #expect(Self.near(interval.low, 0.0001765))
        #expect(Self.near(interval.high, 0.0056426))
        #expect(interval.contains(0.001))
        #expect(!interval.contains(0.01))
    }

    @Test func noTrialsKnowNothing() {
        for trials in [0.0, -3, .nan, .infinity] {
            let interval = RateInterval.wilson(successes: 2, trials: trials)
            #expect(interval.rate == 0)
            #expect(interval.low == 0)
            #expect(interval.high == 1)
        }
    }

    /// Sampled sessions are weighted, so trials can be fractional: 2.5 of 12.5 is a rate of 0.2, 0.0642 … 0.4769.
    @Test func fractionalTrials() {
        let interval = RateInterval.wilson(successes: 2.5, trials: 12.5)
        #expect(interval.rate == 0.2)
        #expect(Self.near(interval.low, 0.0642))
        #expect(Self.near(interval.high, 0.4769))
    }

    @Test func successesAreClampedToTheTrials() {
        #expect(RateInterval.wilson(successes: 15, trials: 10) == RateInterval.wilson(successes: 10, trials: 10))
        #expect(RateInterval.wilson(successes: -2, trials: 10) == RateInterval.wilson(successes: 0, trials: 10))
    }

    @Test func aWiderConfidenceGivesAWiderInterval() {
        let ninetyFive = RateInterval.wilson(successes: 30, trials: 200)
        let ninetyNine = RateInterval.wilson(successes: 30, trials: 200, z: 2.5758293035489004)
        #expect(ninetyNine.low < ninetyFive.low)
        #expect(ninetyNine.high > ninetyFive.high)
        #expect(ninetyNine.rate == ninetyFive.rate)
    }

    @Test func containsIncludesTheBounds() {
        let interval = RateInterval.wilson(successes: 5, trials: 10)
        #expect(interval.contains(0.5))
        #expect(interval.contains(interval.low))
        #expect(interval.contains(interval.high))
        #expect(!interval.contains(0.2))
        #expect(!interval.contains(0.8))
    }
}
