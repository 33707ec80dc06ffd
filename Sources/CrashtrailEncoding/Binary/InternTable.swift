/// The encoder's side of an interned table: each distinct value (compared by its exact bytes, never by Swift's
/// canonical-equivalence string equality, so `é` and `e\u{301}` stay distinct) gets the next index.
struct InternTable {
    private var indexByKey: [[UInt8]: Int] = [:]
    private(set) var count = 0

    init(seeds: some Sequence<[UInt8]> = []) {
        for seed in seeds { _ = insert(seed) }
    }

    /// The index of `key`, nil when it is new.
    func index(of key: [UInt8]) -> Int? {
        indexByKey[key]
    }

    /// Adds `key` unless present; returns its index and whether it was new.
    mutating func insert(_ key: [UInt8]) -> (index: Int, isNew: Bool) {
        if let index = indexByKey[key] { return (index, false) }
        indexByKey[key] = count
        count += 1
        return (count - 1, true)
    }
}
