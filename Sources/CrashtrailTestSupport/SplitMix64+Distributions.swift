import Foundation

/// Draws the realistic trail generator needs beyond uniform integers.
extension SplitMix64 {
    /// A uniform double in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// A standard normal sample (Box–Muller).
    public mutating func normal() -> Double {
        let u = max(unit(), 1e-12)
        let v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// An index in 0..<count drawn from a Zipf distribution with exponent `s`: the first items are popular.
    public mutating func zipf(_ count: Int, s: Double = 1.1) -> Int {
        var total = 0.0
        for rank in 1...max(count, 1) { total += 1 / pow(Double(rank), s) }
        var target = unit() * total
        for rank in 1...max(count, 1) {
            target -= 1 / pow(Double(rank), s)
            if target <= 0 { return rank - 1 }
        }
        return max(count, 1) - 1
    }
}
