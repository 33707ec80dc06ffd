/// A proportion and the confidence interval around it, such as the share of sessions that crashed: ``rate`` is the
/// observed fraction, ``low`` and ``high`` the interval's bounds, all fractions in [0, 1] (0.25 is 25 %).
///
/// Made by ``wilson(successes:trials:z:)``, the Wilson score interval, which unlike the normal approximation stays
/// inside [0, 1] and is useful for rates near 0 or 1 and for few trials.
public struct RateInterval: Sendable, Hashable {
    /// The interval's lower bound, a fraction in [0, 1].
    public let low: Double
    /// The interval's upper bound, a fraction in [0, 1], at least ``low``.
    public let high: Double
    /// The observed proportion, successes / trials, a fraction in [0, 1]; 0 when there were no trials.
    public let rate: Double

    /// The Wilson score interval of a binomial proportion.
    ///
    /// With p̂ = successes / trials, n = trials and z the normal quantile, the interval is
    /// (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n), clamped to [0, 1]. No successes give a low of exactly 0;
    /// all successes a high of exactly 1.
    ///
    /// - Parameters:
    ///   - successes: how many trials succeeded (crashed sessions, say); may be fractional, and is clamped to
    ///     [0, trials] (NaN counts as 0).
    ///   - trials: how many trials there were; may be fractional, because sampled sessions are weighted. No trials
    ///     (0, negative, NaN or infinite) give rate 0, low 0 and high 1: nothing is known.
    ///   - z: the standard normal quantile of the confidence level, in standard deviations (its magnitude is used);
    ///     the default, 1.959963984540054, gives a 95 % two-sided interval.
    /// - Returns: the interval, with ``rate`` the clamped successes / trials.
    public static func wilson(successes: Double, trials: Double, z: Double = 1.959963984540054) -> RateInterval {
        guard trials > 0, trials.isFinite else {
            return RateInterval(low: 0, high: 1, rate: 0)
        }
        let n = trials
        let s = successes.isNaN ? 0 : min(max(successes, 0), n)
        let p = s / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let half = z.magnitude * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        let low = s == 0 ? 0 : min(max(center - half, 0), p)
        let high = s == n ? 1 : max(min(center + half, 1), p)
        return RateInterval(low: low, high: high, rate: p)
    }

    /// Whether the proportion `p` (a fraction, 0.01 for 1 %) lies in the interval, bounds included.
    /// - Parameter p: the proportion to test.
    /// - Returns: `low <= p && p <= high`.
    public func contains(_ p: Double) -> Bool {
        low <= p && p <= high
    }
}
