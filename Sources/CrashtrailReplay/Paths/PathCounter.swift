import CrashtrailCore

/// Counts the last screens of screen paths as they are read, and makes the ``PathTable`` of them.
///
/// The largest group of a store of 100,000 reports has about 12,000 different last screens, most of them counted
/// once, so this is the work `crashtrail paths` does per row. The counter keeps each name once, numbered, in a table
/// of its own keyed by the name's UTF-8 bytes, and each sequence as the numbers of its names in a second table:
/// counting a path hashes its names' bytes and a few integers and allocates nothing, and sorting compares integers,
/// the names' code-point order being worked out once for all of them instead of in every comparison.
package struct PathCounter: Sendable {
    /// How many screens are kept from the end of each path (a negative number keeps none).
    package let last: Int

    /// Every name's UTF-8 bytes, one after another; name `n` is `nameBytes[nameStarts[n]..<nameStarts[n + 1]]`.
    private var nameBytes: [UInt8] = []
    private var nameStarts: [Int] = [0]
    /// Open addressing: a name's number plus one, or 0 for an empty slot; the count is a power of two.
    private var nameSlots = [Int32](repeating: 0, count: 64)

    /// Every sequence's names' numbers, one sequence after another, as `nameStarts` for names.
    private var sequenceNames: [Int32] = []
    private var sequenceStarts: [Int] = [0]
    private var sequenceCounts: [Int] = []
    private var sequenceInferred: [Int] = []
    private var sequenceSlots = [Int32](repeating: 0, count: 1_024)

    /// The numbers of the sequence being counted.
    private var scratch: [Int32] = []
    private var counted = 0
    private var inferred = 0

    /// A counter of the last `last` screens of each path.
    package init(last: Int) {
        self.last = last
    }

    /// Counts `count` reports whose screen path is `screens` (oldest first): its last `last` screens.
    /// - Parameters:
    ///   - screens: the whole path, or at least its last `last` screens.
    ///   - inferred: whether the reports' trails were inferred from breadcrumbs.
    ///   - count: how many reports share the path.
    package mutating func add(_ screens: [String], inferred: Bool = false, count: Int = 1) {
        scratch.removeAll(keepingCapacity: true)
        for var name in screens.suffix(max(0, last)) {
            let number: Int32 = name.withUTF8 { self.number(of: $0) }
            scratch.append(number)
        }
        countScratch(inferred: inferred, count: count)
    }

    /// Counts `count` reports whose screen path ends with the names whose UTF-8 bytes are `names` (oldest first): its
    /// last `last` screens.
    /// - Parameters:
    ///   - names: each name's UTF-8 bytes, the whole path or at least its last `last` names.
    ///   - inferred: whether the reports' trails were inferred from breadcrumbs.
    ///   - count: how many reports share the path.
    package mutating func add(utf8Names names: [UnsafeBufferPointer<UInt8>], inferred: Bool = false, count: Int = 1) {
        scratch.removeAll(keepingCapacity: true)
        for name in names.suffix(max(0, last)) { scratch.append(number(of: name)) }
        countScratch(inferred: inferred, count: count)
    }

    /// The table: the rows most reports first, then by sequence (element by element, names by code point, a sequence
    /// before the longer ones it begins).
    /// - Parameter reportsWithTrail: the reports with a trail that shares are counted over; at least the reports
    ///   counted (reports whose trail could not be replayed count here but in no row).
    /// - Returns: the table of what was counted.
    package func table(reportsWithTrail: Int? = nil) -> PathTable {
        let total = max(reportsWithTrail ?? counted, counted)
        let names = (0..<(nameStarts.count - 1)).map { name in
            String(decoding: nameBytes[nameStarts[name]..<nameStarts[name + 1]], as: UTF8.self)
        }
        // Each name's place in code-point order (UTF-8 byte order): sequences of places compare as the sequences of
        // names do, a shorter sequence before the longer ones it begins.
        var place = [Int32](repeating: 0, count: names.count)
        let byBytes = names.indices.sorted { lhs, rhs in
            nameBytes[nameStarts[lhs]..<nameStarts[lhs + 1]].lexicographicallyPrecedes(nameBytes[nameStarts[rhs]..<nameStarts[rhs + 1]])
        }
        for (rank, name) in byBytes.enumerated() { place[name] = Int32(rank) }
        let order = sequenceCounts.indices.sorted { lhs, rhs in
            if sequenceCounts[lhs] != sequenceCounts[rhs] { return sequenceCounts[lhs] > sequenceCounts[rhs] }
            return sequence(lhs).lexicographicallyPrecedes(sequence(rhs)) { place[Int($0)] < place[Int($1)] }
        }
        let rows = order.map { index in
            PathTable.Row(
                screens: sequence(index).map { names[Int($0)] }, count: sequenceCounts[index],
                share: PathTable.percentage(sequenceCounts[index], of: total), inferred: sequenceInferred[index])
        }
        return PathTable(rows: rows, reportsWithTrail: total, last: last, inferred: inferred)
    }

    private func sequence(_ index: Int) -> ArraySlice<Int32> {
        sequenceNames[sequenceStarts[index]..<sequenceStarts[index + 1]]
    }

    /// Adds `count` to the sequence in `scratch`.
    private mutating func countScratch(inferred: Bool, count: Int) {
        let mask = sequenceSlots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(scratch)) & mask
        while sequenceSlots[slot] != 0 {
            let index = Int(sequenceSlots[slot] - 1)
            if sequence(index).elementsEqual(scratch) {
                record(index, inferred: inferred, count: count)
                return
            }
            slot = (slot + 1) & mask
        }
        let index = sequenceCounts.count
        sequenceSlots[slot] = Int32(index + 1)
        sequenceNames.append(contentsOf: scratch)
        sequenceStarts.append(sequenceNames.count)
        sequenceCounts.append(0)
        sequenceInferred.append(0)
        record(index, inferred: inferred, count: count)
        if sequenceCounts.count * 2 > sequenceSlots.count {
            let slots = Self.slots(sequenceSlots.count * 2, entries: sequenceCounts.count) { Self.hash(sequence($0)) }
            sequenceSlots = slots
        }
    }

    private mutating func record(_ index: Int, inferred: Bool, count: Int) {
        sequenceCounts[index] += count
        counted += count
        if inferred {
            sequenceInferred[index] += count
            self.inferred += count
        }
    }

    /// The number of the name with these UTF-8 bytes, numbering it when it is new.
    private mutating func number(of name: UnsafeBufferPointer<UInt8>) -> Int32 {
        let mask = nameSlots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(name)) & mask
        while nameSlots[slot] != 0 {
            let number = Int(nameSlots[slot] - 1)
            if nameBytes[nameStarts[number]..<nameStarts[number + 1]].elementsEqual(name) { return Int32(number) }
            slot = (slot + 1) & mask
        }
        let number = nameStarts.count - 1
        nameSlots[slot] = Int32(number + 1)
        nameBytes.append(contentsOf: name)
        nameStarts.append(nameBytes.count)
        if number * 2 > nameSlots.count {
            let slots = Self.slots(nameSlots.count * 2, entries: number + 1) { name in
                nameBytes[nameStarts[name]..<nameStarts[name + 1]].withUnsafeBufferPointer(Self.hash)
            }
            nameSlots = slots
        }
        return Int32(number)
    }

    /// `count` slots (a power of two) holding entries `0..<entries`, each at the first free slot from its hash.
    private static func slots(_ count: Int, entries: Int, hash: (Int) -> UInt64) -> [Int32] {
        var slots = [Int32](repeating: 0, count: count)
        let mask = count - 1
        for index in 0..<entries {
            var slot = Int(truncatingIfNeeded: hash(index)) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
        return slots
    }

    /// A sequence's hash: its length and each name's number, mixed in turn.
    private static func hash(_ numbers: some Collection<Int32>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(numbers.count)
        for number in numbers { hash = mix(hash ^ UInt64(UInt32(bitPattern: number))) }
        return hash
    }

    /// FNV-1a over the bytes, mixed: names are a few dozen bytes, known to the app's manifest, not chosen by anyone
    /// who would want them to collide.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return mix(hash)
    }

    /// A 64-bit finalizer (from SplitMix64), so that the low bits that pick a slot depend on every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
