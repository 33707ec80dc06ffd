/// SplitMix64: a small seedable generator, so every benchmark run measures the same trails.
public struct BenchRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
