import CrashtrailCore

/// A HyperLogLog sketch of distinct users (device IDs): about how many different IDs were inserted, in 4 KiB at most,
/// mergeable across sessions, builds, days and collectors.
///
/// The sketch has 4096 registers (precision 12), one byte each of which 6 bits are used. Each ID is hashed to 64 bits
/// with a hash that is the same in every process and on every platform (FNV-1a 64 over the ID's UTF-8 bytes, then
/// MurmurHash3's 64-bit finalizer), so sketches made by different processes merge. The hash's top 12 bits pick a
/// register; the register keeps the largest rank seen there, the position of the first 1 bit in the remaining 52.
///
/// ``estimate`` has a relative standard error of ``standardError`` (about 1.6 %); below 2.5 × 4096 it uses linear
/// counting, which is exact or off by one for a few dozen users. Inserting an ID again, or merging a sketch twice,
/// changes nothing.
///
/// ```swift
/// var sketch = UserSketch()
/// sketch.insert("device-1")
/// sketch.insert("device-2")
/// sketch.estimate  // 2
/// ```
///
/// ``serialized`` is small for few users (3 bytes a user up to 1365 users, then 4097 bytes) and
/// ``init(serialized:)`` reads it back.
///
/// In memory a sketch with few users holds only their registers (up to ``sparseLimit``), so counting one session's
/// user allocates no 4 KiB array; it turns dense past that.
public struct UserSketch: Sendable, Hashable {
    /// The number of hash bits that pick a register (p): 12.
    public static let precision = 12

    /// The number of registers (m = 2^12 = 4096), one byte each.
    public static let registerCount = 1 << precision

    /// The largest rank a register can hold: the 52 bits left after the register index, plus one (53).
    public static let maximumRank: UInt8 = UInt8(64 - precision + 1)

    /// The estimate's relative standard error, 1.04 / √4096 = 0.01625 (about 1.6 %): about two estimates in three are
    /// within this fraction of the true count, and nearly all within three times it.
    public static let standardError: Double = 0.01625

    /// The most non-zero registers a sketch keeps as pairs before it turns dense.
    public static let sparseLimit = 64

    /// The dense registers: for each of the 4096, the largest rank of an ID hashed to it, 0 when none was; empty while
    /// the sketch is sparse.
    private var dense: [UInt8] = []
    /// While sparse: the non-zero registers as `index << 8 | rank`, sorted by index.
    private var pairs: [UInt32] = []

    /// An empty sketch: no users, ``estimate`` 0.
    public init() {}

    /// Every register's rank, made dense when the sketch is sparse.
    private var registers: [UInt8] {
        guard dense.isEmpty else { return dense }
        var registers = [UInt8](repeating: 0, count: Self.registerCount)
        for pair in pairs { registers[Int(pair >> 8)] = UInt8(truncatingIfNeeded: pair) }
        return registers
    }

    /// Keeps `rank` at register `index` if it is larger than the rank there.
    private mutating func raise(_ index: Int, to rank: UInt8) {
        guard rank > 0 else { return }
        if !dense.isEmpty {
            if rank > dense[index] { dense[index] = rank }
            return
        }
        // The first pair at or after `index`, by binary search.
        var low = 0
        var high = pairs.count
        while low < high {
            let middle = (low + high) / 2
            if Int(pairs[middle] >> 8) < index { low = middle + 1 } else { high = middle }
        }
        if low < pairs.count, Int(pairs[low] >> 8) == index {
            if rank > UInt8(truncatingIfNeeded: pairs[low]) { pairs[low] = UInt32(index) << 8 | UInt32(rank) }
            return
        }
        pairs.insert(UInt32(index) << 8 | UInt32(rank), at: low)
        if pairs.count > Self.sparseLimit {
            dense = registers
            pairs = []
        }
    }

    public static func == (lhs: UserSketch, rhs: UserSketch) -> Bool {
        if lhs.dense.isEmpty, rhs.dense.isEmpty { return lhs.pairs == rhs.pairs }
        return lhs.registers == rhs.registers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized)
    }

    /// Counts a user (a device ID); an ID already counted changes nothing.
    ///
    /// - Parameter id: the ID, compared by its UTF-8 bytes (`"é"` as one scalar and as `e` plus an accent are two IDs).
    public mutating func insert(_ id: String) {
        let hash = StableHash.of(id)
        let index = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.precision))
        let rest = hash << UInt64(Self.precision)
        let rank = UInt8(min(rest.leadingZeroBitCount, 64 - Self.precision) + 1)
        raise(index, to: rank)
    }

    /// Adds every user `other` counted, as if its IDs had been inserted here (each register keeps the larger rank).
    ///
    /// Merging is commutative, associative and idempotent: the sketch of a union of sets is the union of their sketches.
    /// - Parameter other: the sketch to merge in.
    public mutating func formUnion(_ other: UserSketch) {
        if other.dense.isEmpty {
            if dense.isEmpty, pairs.isEmpty {
                pairs = other.pairs
                return
            }
            for pair in other.pairs { raise(Int(pair >> 8), to: UInt8(truncatingIfNeeded: pair)) }
            return
        }
        if dense.isEmpty {
            let mine = pairs
            dense = other.dense
            pairs = []
            for pair in mine { raise(Int(pair >> 8), to: UInt8(truncatingIfNeeded: pair)) }
            return
        }
        for index in dense.indices where other.dense[index] > dense[index] {
            dense[index] = other.dense[index]
        }
    }

    /// The users counted by either sketch; see ``formUnion(_:)``.
    /// - Parameter other: the other sketch.
    /// - Returns: the merged sketch.
    public func union(_ other: UserSketch) -> UserSketch {
        var merged = self
        merged.formUnion(other)
        return merged
    }

    /// Whether no user was counted.
    public var isEmpty: Bool {
        dense.isEmpty ? pairs.isEmpty : dense.allSatisfy { $0 == 0 }
    }

    /// The estimated number of distinct users, rounded to the nearest whole user; 0 for an empty sketch.
    ///
    /// Its relative standard error is ``standardError``. The raw HyperLogLog estimate is α·m² / Σ 2^−rank; when it is
    /// at most 2.5 m and some register is still empty, linear counting, m · ln(m / empty registers), is used instead.
    public var estimate: Int {
        let m = Double(Self.registerCount)
        var sum = 0.0
        var empty = 0
        if dense.isEmpty {
            empty = Self.registerCount - pairs.count
            sum = Double(empty)
            for pair in pairs { sum += Double(sign: .plus, exponent: -Int(UInt8(truncatingIfNeeded: pair)), significand: 1) }
        } else {
            for rank in dense {
                sum += Double(sign: .plus, exponent: -Int(rank), significand: 1)
                if rank == 0 {
                    empty += 1
                }
            }
        }
        let alpha = 0.7213 / (1 + 1.079 / m)
        var value = alpha * m * m / sum
        if value <= 2.5 * m && empty > 0 {
            value = m * Self.naturalLog(m / Double(empty))
        }
        return Int(value.rounded())
    }

    // MARK: Serialization

    /// The form byte of the sparse form: (index, rank) pairs of the non-zero registers follow.
    private static let sparseForm: UInt8 = 1
    /// The form byte of the dense form: all 4096 registers follow.
    private static let denseForm: UInt8 = 2

    /// The sketch as bytes, in whichever form is smaller, for ``init(serialized:)``.
    ///
    /// The first byte names the form. Form 1 (sparse) is followed by 3 bytes for each non-zero register, in index
    /// order: the index as 2 bytes little-endian, then the rank; an empty sketch is `[1]`. Form 2 (dense) is followed by
    /// the 4096 registers' ranks, 4097 bytes in all. Sparse is chosen while it is smaller: up to 1365 non-zero registers
    /// (at most 4096 bytes). Equal sketches give equal bytes.
    public var serialized: [UInt8] {
        if dense.isEmpty {
            var bytes: [UInt8] = [Self.sparseForm]
            bytes.reserveCapacity(1 + 3 * pairs.count)
            for pair in pairs {
                bytes.append(UInt8(truncatingIfNeeded: pair >> 8))
                bytes.append(UInt8(truncatingIfNeeded: pair >> 16))
                bytes.append(UInt8(truncatingIfNeeded: pair))
            }
            return bytes
        }
        let registers = dense
        let filled = registers.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
        guard 3 * filled < Self.registerCount else {
            return [Self.denseForm] + registers
        }
        var bytes: [UInt8] = [Self.sparseForm]
        bytes.reserveCapacity(1 + 3 * filled)
        for (index, rank) in registers.enumerated() where rank != 0 {
            bytes.append(UInt8(truncatingIfNeeded: index))
            bytes.append(UInt8(truncatingIfNeeded: index >> 8))
            bytes.append(rank)
        }
        return bytes
    }

    /// Reads a sketch back from ``serialized``.
    ///
    /// The sparse form's pairs may come in any order; a register named twice keeps the larger rank, and a rank of 0
    /// changes nothing.
    /// - Parameter bytes: the serialized sketch.
    /// - Throws: ``DecodingError`` when the bytes are not a sketch: no form byte or a length the form does not allow
    ///   (``DecodingError/wrongLength(form:count:)``), a form byte other than 1 or 2 (``DecodingError/unknownForm(_:)``),
    ///   a register index of 4096 or more (``DecodingError/indexOutOfRange(_:)``), or a rank above ``maximumRank``
    ///   (``DecodingError/rankTooBig(index:rank:)``).
    public init(serialized bytes: [UInt8]) throws(DecodingError) {
        guard let form = bytes.first else {
            throw .wrongLength(form: nil, count: 0)
        }
        self.init()
        switch form {
        case Self.sparseForm:
            guard (bytes.count - 1) % 3 == 0 else {
                throw .wrongLength(form: form, count: bytes.count)
            }
            var offset = 1
            while offset < bytes.count {
                let index = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
                let rank = bytes[offset + 2]
                guard index < Self.registerCount else {
                    throw .indexOutOfRange(index)
                }
                guard rank <= Self.maximumRank else {
                    throw .rankTooBig(index: index, rank: rank)
                }
                raise(index, to: rank)
                offset += 3
            }
        case Self.denseForm:
            guard bytes.count == 1 + Self.registerCount else {
                throw .wrongLength(form: form, count: bytes.count)
            }
            var registers = [UInt8](repeating: 0, count: Self.registerCount)
            for index in 0..<Self.registerCount {
                let rank = bytes[1 + index]
                guard rank <= Self.maximumRank else {
                    throw .rankTooBig(index: index, rank: rank)
                }
                registers[index] = rank
            }
            dense = registers
        default:
            throw .unknownForm(form)
        }
    }

    /// Why bytes given to ``UserSketch/init(serialized:)`` are not a sketch.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes' length does not fit their form: no bytes at all (`form` nil, `count` 0), a sparse form whose
        /// pairs do not come out even (1 + 3 × pairs bytes), or a dense form not 4097 bytes long. `count` is the
        /// length in bytes, form byte included.
        case wrongLength(form: UInt8?, count: Int)
        /// The first byte names no form (1 is sparse, 2 is dense).
        case unknownForm(UInt8)
        /// A sparse pair names a register past the last (index 4096 or more).
        case indexOutOfRange(Int)
        /// A register's rank is above ``UserSketch/maximumRank`` (53), more than a 64-bit hash can give.
        case rankTooBig(index: Int, rank: UInt8)

        /// What was wrong with the bytes, in a sentence.
        public var description: String {
            switch self {
            case .wrongLength(nil, _):
                return "a user sketch cannot be empty: it starts with its form byte"
            case .wrongLength(let form?, let count) where form == UserSketch.sparseForm:
                return "a sparse user sketch is 1 + 3 bytes a register long, not \(count) bytes"
            case .wrongLength(_, let count):
                return "a dense user sketch is \(1 + UserSketch.registerCount) bytes long, not \(count) bytes"
            case .unknownForm(let form):
                return "unknown user sketch form \(form) (1 is sparse, 2 is dense)"
            case .indexOutOfRange(let index):
                return "user sketch register \(index) is out of range (there are \(UserSketch.registerCount))"
            case .rankTooBig(let index, let rank):
                return "user sketch register \(index) has rank \(rank), above the largest, \(UserSketch.maximumRank)"
            }
        }
    }

    // MARK: Hashing and arithmetic

    /// The natural logarithm of a positive, finite `x`, without the platform's C library.
    ///
    /// x = s · 2^e with s in [√½, √2), and ln s = 2 atanh((s − 1) / (s + 1)) by its series, which converges fast there.
    /// Accurate to a few units in the last place, and the same on every platform.
    static func naturalLog(_ x: Double) -> Double {
        var exponent = Int(x.exponent)
        var significand = x.significand
        if significand > 1.4142135623730951 {
            significand /= 2
            exponent += 1
        }
        let t = (significand - 1) / (significand + 1)
        let t2 = t * t
        var power = t
        var sum = 0.0
        var denominator = 1.0
        while true {
            let term = power / denominator
            let next = sum + term
            if next == sum {
                break
            }
            sum = next
            power *= t2
            denominator += 2
        }
        return Double(exponent) * 0.6931471805599453 + 2 * sum
    }
}
