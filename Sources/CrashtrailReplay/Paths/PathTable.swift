public import CrashtrailCore

/// Which last screens lead to a crash, and how often (SPEC section 13, `crashtrail paths`).
public struct PathTable: Hashable, Sendable {
    /// One distinct sequence of last screens.
    public struct Row: Hashable, Sendable {
        /// Destination names, oldest first, ending with the screen at the crash.
        public var screens: [String]
        /// How many reports end with these screens.
        public var count: Int
        /// `count` over the reports with a trail, as a whole-number percentage rounded half up.
        public var share: Int
        /// How many of `count` come from trails inferred from breadcrumbs (SPEC section 15).
        public var inferred: Int

        public init(screens: [String], count: Int, share: Int, inferred: Int = 0) {
            self.screens = screens
            self.count = count
            self.share = share
            self.inferred = inferred
        }

        /// `{"screens": [...], "count": N, "share": N}`, exactly these keys (SPEC section 13): how many are inferred is
        /// told apart in the text, the site and ``PathTable/inferred``.
        public var jsonValue: JSONValue {
            .object(["screens": .array(screens.map(JSONValue.string)), "count": .int(Int64(count)), "share": .int(Int64(share))])
        }
    }

    /// The rows, most reports first, then by sequence (compared element by element, names by code point).
    public let rows: [Row]
    /// The reports with a trail the shares are counted over.
    public let reportsWithTrail: Int
    /// How many last screens each row holds at most.
    public let last: Int
    /// How many of the paths counted come from trails inferred from breadcrumbs.
    public let inferred: Int

    /// Counts the last `last` screens of each screen path.
    /// - Parameters:
    ///   - paths: the screen paths of the reports whose trail was replayed.
    ///   - last: how many screens to keep from the end of each path (SPEC default 5).
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least `paths.count` (reports
    ///     whose trail could not be replayed count here but in no row).
    public init(paths: [[String]], last: Int = 5, reportsWithTrail: Int? = nil) {
        self.init(paths: paths.map { (screens: $0, inferred: false) }, last: last, reportsWithTrail: reportsWithTrail)
    }

    /// Counts the last `last` screens of each screen path, telling apart those of trails inferred from breadcrumbs.
    /// - Parameters:
    ///   - paths: the screen paths of the reports whose trail was replayed, each with whether its trail was inferred.
    ///   - last: how many screens to keep from the end of each path.
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least `paths.count`.
    public init(paths: [(screens: [String], inferred: Bool)], last: Int = 5, reportsWithTrail: Int? = nil) {
        self.init(paths: paths.map { ($0.screens, $0.inferred, 1) }, last: last, reportsWithTrail: reportsWithTrail)
    }

    /// Counts the last `last` screens of screen paths that several reports share, each given once with how many
    /// reports have it.
    /// - Parameters:
    ///   - paths: each screen path, whether its trails were inferred, and how many reports have it.
    ///   - last: how many screens to keep from the end of each path.
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least the sum of the counts.
    public init(paths: [(screens: [String], inferred: Bool, count: Int)], last: Int = 5, reportsWithTrail: Int? = nil) {
        let replayed = paths.reduce(0) { $0 + $1.count }
        let total = max(reportsWithTrail ?? replayed, replayed)
        var counts: [[String]: (all: Int, inferred: Int)] = [:]
        for path in paths {
            let screens = ScreenPath.lastScreens(path.screens, count: last)
            counts[screens, default: (0, 0)].all += path.count
            if path.inferred { counts[screens, default: (0, 0)].inferred += path.count }
        }
        inferred = paths.reduce(0) { $0 + ($1.inferred ? $1.count : 0) }
        rows = Self.sorted(
            counts.map { screens, count in
                Row(screens: screens, count: count.all, share: Self.percentage(count.all, of: total), inferred: count.inferred)
            })
        self.reportsWithTrail = total
        self.last = last
    }

    /// The JSON `crashtrail paths --format json` prints: an array of rows.
    public var jsonValue: JSONValue { .array(rows.map(\.jsonValue)) }

    /// `part` over `whole` as a whole-number percentage, rounded half up; 0 when `whole` is 0.
    public static func percentage(_ part: Int, of whole: Int) -> Int {
        guard whole > 0 else { return 0 }
        return (200 * part + whole) / (2 * whole)
    }

    /// `rows` most reports first, then by sequence (``precedes(_:_:)``).
    ///
    /// A group can have tens of thousands of rows, most of them counted once, so the sequences are compared as one
    /// key each: each name's UTF-8 followed by a NUL byte. Byte order on these keys is ``precedes(_:_:)``'s order:
    /// UTF-8 byte order is code point order, the NUL sorts a name before any longer name it begins, and a shorter
    /// sequence's key begins the longer one's. A name holding a NUL would break that, so rows with one are compared
    /// name by name instead.
    static func sorted(_ rows: [Row]) -> [Row] {
        guard !rows.contains(where: { $0.screens.contains { $0.utf8.contains(0) } }) else {
            return rows.sorted { lhs, rhs in
                if lhs.count != rhs.count { return lhs.count > rhs.count }
                return precedes(lhs.screens, rhs.screens)
            }
        }
        let keys = rows.map { row in
            var key: [UInt8] = []
            for name in row.screens {
                key.append(contentsOf: name.utf8)
                key.append(0)
            }
            return key
        }
        let order = rows.indices.sorted { left, right in
            if rows[left].count != rows[right].count { return rows[left].count > rows[right].count }
            return keys[left].withUnsafeBufferPointer { lhs in
                keys[right].withUnsafeBufferPointer { rhs in lhs.lexicographicallyPrecedes(rhs) }
            }
        }
        return order.map { rows[$0] }
    }

    /// Element by element, names by Unicode code point; a sequence that is a prefix of another comes first.
    static func precedes(_ lhs: [String], _ rhs: [String]) -> Bool {
        for (left, right) in zip(lhs, rhs) where !left.utf8.elementsEqual(right.utf8) {
            return CanonicalJSON.codePointPrecedes(left, right)
        }
        return lhs.count < rhs.count
    }
}
