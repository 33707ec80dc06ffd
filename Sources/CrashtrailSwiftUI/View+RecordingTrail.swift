public import CrashtrailAdapters

#if canImport(SwiftUI)
public import SwiftUI
#else
public import SwiftUIStandIn
#endif

extension View {
    /// Records the screens this view shows: `screens` is reported to `settler` when the view appears and each time it
    /// changes (SPEC section 18).
    ///
    /// Attach it to the view that owns the selected tab, the typed paths and the sheets:
    ///
    /// ```swift
    /// TabView(selection: $tab) { … }
    ///     .recordingTrail(settler, TrailScreens(tab: tab, roots: [.home, .marketplace, .myProfile],
    ///                                           paths: [homePath, marketPath, mePath], sheets: sheet.map { [[$0]] } ?? []))
    /// ```
    ///
    /// It uses `onAppear(perform:)` and `onChange(of:perform:)`, the overload available from iOS 14 (the package
    /// supports iOS 16). SwiftUI calls it after a change, a swipe back only once it completes, so a cancelled swipe
    /// reports nothing. Nothing here throws: a value that does not encode is refused by the settler, not lost.
    /// - Parameters:
    ///   - settler: the session's settler.
    ///   - screens: what the screen shows now.
    /// - Returns: the view, reporting its screens.
    @MainActor
    public func recordingTrail<D: Encodable & Equatable>(_ settler: ScreenSettler, _ screens: TrailScreens<D>) -> some View {
        onAppear { settler.screensChanged(screens.tree) }
            .onChange(of: screens) { settler.screensChanged($0.tree) }
    }

    /// Records the screens of a `TabView`: ``recordingTrail(_:_:)`` with `TrailScreens(tab:roots:paths:sheets:)`.
    /// - Parameters:
    ///   - settler: the session's settler.
    ///   - tab: the selected tab index.
    ///   - roots: each tab's root, in the manifest's tab order.
    ///   - paths: each tab's typed path above its root, in the same order.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    /// - Returns: the view, reporting its screens.
    @MainActor
    public func recordingTrail<D: Encodable & Equatable>(_ settler: ScreenSettler, tab: Int, roots: [D], paths: [[D]], sheets: [[D]] = [])
        -> some View
    {
        recordingTrail(settler, TrailScreens(tab: tab, roots: roots, paths: paths, sheets: sheets))
    }

    /// Records the screens of a single `NavigationStack`: ``recordingTrail(_:_:)`` with
    /// `TrailScreens(root:path:sheets:)`.
    /// - Parameters:
    ///   - settler: the session's settler.
    ///   - root: the root screen.
    ///   - path: the typed path above the root.
    ///   - sheets: the sheets and full-screen covers, bottom to top, each its root then its own path.
    /// - Returns: the view, reporting its screens.
    @MainActor
    public func recordingTrail<D: Encodable & Equatable>(_ settler: ScreenSettler, root: D, path: [D], sheets: [[D]] = []) -> some View {
        recordingTrail(settler, TrailScreens(root: root, path: path, sheets: sheets))
    }
}
