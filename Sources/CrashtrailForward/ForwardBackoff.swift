/// How long a failed send waits before the next: exponential from `base`, at most `maximum`, with jitter so many
/// reports failing together do not come back together.
package struct ForwardBackoff: Sendable {
    package var base: Double
    package var maximum: Double

    package init(base: Double = 1, maximum: Double = 600) {
        self.base = base
        self.maximum = maximum
    }

    /// The wait in seconds after `attempts` failed sends, with `unit` (0 to 1) choosing the jitter: from half the wait
    /// to all of it.
    package func delay(afterAttempts attempts: Int, unit: Double) -> Double {
        let exponential = min(maximum, base * Double(1 << min(max(0, attempts - 1), 30)))
        return exponential * (0.5 + 0.5 * min(1, max(0, unit)))
    }
}
