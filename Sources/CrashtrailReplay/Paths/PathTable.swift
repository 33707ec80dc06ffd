package import CrashtrailCore

/// Which last screens lead to a crash, and how often (SPEC section 13, `crashtrail paths`).
package struct PathTable: Hashable, Sendable {
    /// One distinct sequence of last screens.
    package struct Row: Hashable, Sendable {
        /// Destination names, oldest first, ending with the screen at the crash.
        package var screens: [String]
        /// How many reports end with these screens.
        package var count: Int
        /// `count` over the reports with a trail, as a whole-number percentage rounded half up.
        package var share: Int
        /// How many of `count` come from trails inferred from breadcrumbs (SPEC section 15).
        package var inferred: Int

        package init(screens: [String], count: Int, share: Int, inferred: Int = 0) {
            self.screens = screens
            self.count = count
            self.share = share
            self.inferred = inferred
        }

        /// `{"screens": [...], "count": N, "share": N}`, exactly these keys (SPEC section 13): how many are inferred is
        /// told apart in the text, the site and ``PathTable/inferred``.
        package var jsonValue: JSONValue {
            .object(["screens": .array(screens.map(JSONValue.string)), "count": .int(Int64(count)), "share": .int(Int64(share))])
        }
    }

    /// The rows, most reports first, then by sequence (compared element by element, names by code point, a sequence
    /// before the longer ones it begins).
    package let rows: [Row]
    /// The reports with a trail the shares are counted over.
    package let reportsWithTrail: Int
    /// How many last screens each row holds at most.
    package let last: Int
    /// How many of the paths counted come from trails inferred from breadcrumbs.
    package let inferred: Int

    /// Counts the last `last` screens of each screen path.
    /// - Parameters:
    ///   - paths: the screen paths of the reports whose trail was replayed.
    ///   - last: how many screens to keep from the end of each path (SPEC default 5).
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least `paths.count` (reports
    ///     whose trail could not be replayed count here but in no row).
    package init(paths: [[String]], last: Int = 5, reportsWithTrail: Int? = nil) {
        self.init(paths: paths.map { (screens: $0, inferred: false) }, last: last, reportsWithTrail: reportsWithTrail)
    }

    /// Counts the last `last` screens of each screen path, telling apart those of trails inferred from breadcrumbs.
    /// - Parameters:
    ///   - paths: the screen paths of the reports whose trail was replayed, each with whether its trail was inferred.
    ///   - last: how many screens to keep from the end of each path.
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least `paths.count`.
    package init(paths: [(screens: [String], inferred: Bool)], last: Int = 5, reportsWithTrail: Int? = nil) {
        self.init(paths: paths.map { ($0.screens, $0.inferred, 1) }, last: last, reportsWithTrail: reportsWithTrail)
    }

    /// Counts the last `last` screens of screen paths that several reports share, each given once with how many
    /// reports have it.
    /// - Parameters:
    ///   - paths: each screen path, whether its trails were inferred, and how many reports have it.
    ///   - last: how many screens to keep from the end of each path.
    ///   - reportsWithTrail: the reports with a trail that shares are counted over; at least the sum of the counts.
    package init(paths: [(screens: [String], inferred: Bool, count: Int)], last: Int = 5, reportsWithTrail: Int? = nil) {
        var counter = PathCounter(last: last)
        for path in paths { counter.add(path.screens, inferred: path.inferred, count: path.count) }
        self = counter.table(reportsWithTrail: reportsWithTrail)
    }

    /// A table of rows already counted and sorted (``PathCounter``).
    init(rows: [Row], reportsWithTrail: Int, last: Int, inferred: Int) {
        self.rows = rows
        self.reportsWithTrail = reportsWithTrail
        self.last = last
        self.inferred = inferred
    }

    /// The JSON `crashtrail paths --format json` prints: an array of rows.
    package var jsonValue: JSONValue { .array(rows.map(\.jsonValue)) }

    /// `part` over `whole` as a whole-number percentage, rounded half up; 0 when `whole` is 0.
    package static func percentage(_ part: Int, of whole: Int) -> Int {
        guard whole > 0 else { return 0 }
        return (200 * part + whole) / (2 * whole)
    }
}
