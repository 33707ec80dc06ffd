import CrashtrailCore

extension ScreenTree {
    /// A tree from what a SwiftUI app holds: the selected tab, each tab's root and `NavigationStack` path, and the
    /// sheets and full-screen covers over them, in the app's own destination type.
    ///
    /// ```swift
    /// let tree = ScreenTree(tab: selectedTab, roots: [.home, .marketplace, .myProfile], paths: [homePath, marketPath, mePath])
    /// ```
    /// Values are turned into destinations with `Destination(encoding:)`. One that does not encode is kept out of its
    /// stack and named in ``unencodable``, so this initializer throws nothing and ``ScreenSettler`` reports the tree as
    /// refused rather than recording a state without that screen.
    /// - Parameters:
    ///   - tab: the selected tab index.
    ///   - roots: each tab's root, in the manifest's tab order.
    ///   - paths: each tab's path above its root, in the same order; a tab without a path shows its root alone and
    ///     paths past the last root are ignored.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    public init<D: Encodable>(tab: Int, roots: [D], paths: [[D]], sheets: [[D]] = []) {
        var unencodable: [DestinationError] = []
        let stacks = roots.indices.map { index in
            Self.encoded([roots[index]] + (index < paths.count ? paths[index] : []), failures: &unencodable)
        }
        let modals = sheets.map { Self.encoded($0, failures: &unencodable) }
        self.init(tab: tab, stacks: stacks, modals: modals, unencodable: unencodable)
    }

    /// A tree from a SwiftUI app without a tab bar: the root, its `NavigationStack` path and the sheets and
    /// full-screen covers over it, in the app's own destination type.
    ///
    /// Values that do not encode are handled as in ``init(tab:roots:paths:sheets:)``.
    /// - Parameters:
    ///   - root: the root screen.
    ///   - path: the path above the root.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    public init<D: Encodable>(root: D, path: [D], sheets: [[D]] = []) {
        var unencodable: [DestinationError] = []
        let stack = Self.encoded([root] + path, failures: &unencodable)
        let modals = sheets.map { Self.encoded($0, failures: &unencodable) }
        self.init(tab: nil, stacks: [stack], modals: modals, unencodable: unencodable)
    }

    /// `values` as destinations; a value that does not encode is nil (skipped) and its error is appended to `failures`.
    private static func encoded<D: Encodable>(_ values: [D], failures: inout [DestinationError]) -> [Destination?] {
        var destinations: [Destination?] = []
        for value in values {
            do throws(DestinationError) {
                destinations.append(try Destination(encoding: value))
            } catch {
                failures.append(error)
                destinations.append(nil)
            }
        }
        return destinations
    }
}
