public import CrashtrailAdapters

/// What a SwiftUI app's screen shows, in its own destination type: the selected tab, each tab's root and typed
/// `NavigationStack` path, and the sheets and full-screen covers over them.
///
/// `View.recordingTrail(_:_:)` reports it to a `ScreenSettler` when it appears and whenever it changes. Paths
/// must be typed (`[AppDestination]`, not `NavigationPath`), so each entry encodes as a destination.
///
/// ```swift
/// TrailScreens(tab: tab, roots: [.home, .marketplace, .myProfile], paths: [homePath, marketPath, mePath],
///              sheets: sheet.map { [[$0]] } ?? [])
/// ```
public struct TrailScreens<D: Encodable & Equatable>: Equatable {
    /// The selected tab index, or nil without a tab bar.
    public var tab: Int?
    /// Each tab's root, in the manifest's tab order; the single root without a tab bar.
    public var roots: [D]
    /// Each tab's path above its root, in the same order.
    public var paths: [[D]]
    /// The sheets and full-screen covers, bottom to top, each its root then its own path.
    public var sheets: [[D]]

    /// The screens of a `TabView`.
    /// - Parameters:
    ///   - tab: the selected tab index.
    ///   - roots: each tab's root, in the manifest's tab order.
    ///   - paths: each tab's path above its root, in the same order.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    public init(tab: Int, roots: [D], paths: [[D]], sheets: [[D]] = []) {
        self.tab = tab
        self.roots = roots
        self.paths = paths
        self.sheets = sheets
    }

    /// The screens of a single `NavigationStack`, without a tab bar.
    /// - Parameters:
    ///   - root: the root screen.
    ///   - path: the path above the root.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    public init(root: D, path: [D], sheets: [[D]] = []) {
        self.tab = nil
        self.roots = [root]
        self.paths = [path]
        self.sheets = sheets
    }

    /// The tree these screens show (values that do not encode are named in its `unencodable`, not thrown).
    public var tree: ScreenTree {
        // Without a tab bar, the one root and path make the single stack, as `ScreenTree(root:path:sheets:)` does.
        var tree = ScreenTree(tab: tab ?? 0, roots: roots, paths: paths, sheets: sheets)
        tree.tab = tab
        return tree
    }
}
