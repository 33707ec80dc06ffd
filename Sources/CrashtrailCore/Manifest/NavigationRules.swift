/// What the navigation rules (SPEC section 4) need of each destination, found by name on every request, and
/// the index of each destination by name.
///
/// A name is first looked for by a cheap key, its UTF-8 length with its first and last bytes, and confirmed with
/// `==`; a name the key does not find is then looked up in a dictionary. So every name that is `==` to a
/// destination's finds its rule, Unicode canonical equivalents included, exactly as a dictionary alone would,
/// while the names of a manifest, the usual case, skip hashing the whole string.
final class NavigationRules: Sendable {
    /// The part of a destination's spec the Navigator consults on every request: plain values, so finding one
    /// copies no references.
    struct Rule: Sendable {
        let gate: Bool
        let modal: Bool
        let tabIndex: Int?
        /// Whether the destination is some condition's flow.
        let isFlow: Bool
        /// Where the destination's requirements sit in ``NavigationRules/requirements``.
        let requirements: Range<Int>
    }

    /// Every destination's required conditions, in order, each with its flow destination; each rule names its range.
    let requirements: [(condition: String, flow: Destination)]
    /// Rules and names in manifest order.
    private let rules: [Rule]
    private let names: [String]
    /// Open addressing by key: each slot holds a key and the index of its rule, or -1 when empty.
    private let slots: [(key: UInt32, rule: Int)]
    private let mask: Int
    /// Every name, for what the key misses.
    private let byName: [String: Int]

    /// The rules of a manifest's destinations.
    /// - Parameters:
    ///   - destinations: the destinations, whose names are distinct (`==`), in manifest order.
    ///   - conditions: the conditions, each with its flow.
    ///   - tabIndex: the tab index of each tab root.
    init(destinations: [Manifest.DestinationSpec], conditions: [Manifest.Condition], tabIndex: [String: Int]) {
        let flows = Dictionary(conditions.map { ($0.name, $0.flow) }, uniquingKeysWith: { first, _ in first })
        let flowNames = Set(conditions.map(\.flow))
        var requirements: [(condition: String, flow: Destination)] = []
        var rules: [Rule] = []
        for spec in destinations {
            let start = requirements.count
            requirements += spec.requires.map { ($0, Destination(flows[$0] ?? "")) }
            rules.append(
                Rule(
                    gate: spec.gate, modal: spec.presentation == .modal, tabIndex: tabIndex[spec.name],
                    isFlow: flowNames.contains(spec.name), requirements: start..<requirements.count))
        }
        self.requirements = requirements
        self.rules = rules
        let names = destinations.map(\.name)
        self.names = names
        var byName: [String: Int] = [:]
        for (index, name) in names.enumerated() where byName[name] == nil { byName[name] = index }
        self.byName = byName
        // At most a quarter full, so a probe seldom meets another key.
        var capacity = 8
        while capacity < names.count * 4 { capacity *= 2 }
        var slots = [(key: UInt32, rule: Int)](repeating: (0, -1), count: capacity)
        for (index, name) in names.enumerated() where byName[name] == index {
            let key = Self.key(name)
            var slot = Self.slot(key, mask: capacity - 1)
            while slots[slot].rule >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = (key, index)
        }
        self.slots = slots
        self.mask = capacity - 1
    }

    /// The rule of the destination named `name`, or nil when the manifest has no such destination.
    func rule(named name: String) -> Rule? {
        index(named: name).map { rules[$0] }
    }

    /// The index in the manifest's destinations of the one named `name`, or nil when there is none.
    func index(named name: String) -> Int? {
        let key = Self.key(name)
        var slot = Self.slot(key, mask: mask)
        while slots[slot].rule >= 0 {
            if slots[slot].key == key, names[slots[slot].rule] == name { return slots[slot].rule }
            slot = (slot + 1) & mask
        }
        return byName[name]
    }

    /// The UTF-8 length (up to 255) and the first and last bytes.
    private static func key(_ name: String) -> UInt32 {
        // Read through one contiguous buffer when the string has one (native strings do): the view's `count`,
        // `first` and `last` each cost more than the rest of the lookup.
        let utf8 = name.utf8
        if let key = utf8.withContiguousStorageIfAvailable({ Self.key($0) }) { return key }
        return UInt32(truncatingIfNeeded: min(utf8.count, 255)) | UInt32(utf8.first ?? 0) << 8 | UInt32(utf8.last ?? 0) << 16
    }

    private static func key(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: min(utf8.count, 255)) | UInt32(utf8.first ?? 0) << 8 | UInt32(utf8.last ?? 0) << 16
    }

    private static func slot(_ key: UInt32, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }
}
