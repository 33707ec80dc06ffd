/// What one session passed through, each counted once (SPEC section 20): the screens it showed, the transitions
/// `A → B` between consecutive screens, and the sequences of three consecutive screens.
public struct PathVisits: Sendable, Hashable {
    /// What a counted path is.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
        case screen, transition, sequence

        /// How many screens a path of this kind names.
        public var length: Int {
            switch self {
            case .screen: 1
            case .transition: 2
            case .sequence: 3
            }
        }

        /// The kind of a path of `length` screens.
        public init?(length: Int) {
            guard let kind = Self.allCases.first(where: { $0.length == length }) else { return nil }
            self = kind
        }

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.length < rhs.length }
    }

    /// One counted path: its kind and its screens, in order.
    public struct Path: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var screens: [String]
        public var kind: Kind { Kind(length: screens.count) ?? .sequence }

        public init(_ screens: [String]) { self.screens = screens }

        /// The screens joined by arrows: `home → item`.
        public var description: String { screens.joined(separator: " → ") }

        /// The key the store keeps it under: the names joined by a newline, which no screen name holds.
        public var key: String { screens.joined(separator: "\n") }

        /// The path a store key names.
        public init(key: String) { screens = key.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

        public static func < (lhs: Path, rhs: Path) -> Bool {
            guard lhs.screens.count == rhs.screens.count else { return lhs.screens.count < rhs.screens.count }
            return lhs.screens.lexicographicallyPrecedes(rhs.screens)
        }
    }

    /// The distinct paths, sorted.
    public let paths: [Path]

    /// The visits of a session whose screen path (consecutive repeats collapsed, SPEC section 13) is `screens`.
    public init(screens: [String]) {
        var seen: Set<Path> = []
        for length in 1...3 where screens.count >= length {
            for start in 0...(screens.count - length) {
                let window = Array(screens[start..<(start + length)])
                // A transition or sequence that stays on a screen is no transition (the path collapses repeats).
                guard length == 1 || zip(window, window.dropFirst()).allSatisfy({ $0 != $1 }) else { continue }
                seen.insert(Path(window))
            }
        }
        paths = seen.sorted()
    }
}
