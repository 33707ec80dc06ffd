import CrashtrailAdapters
import CrashtrailCore
import CrashtrailSwiftUI
import Testing

#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

/// The SwiftUI glue: what it reports.
///
/// On Linux the stand-in renders nothing and never runs the modifier's actions,
/// so SwiftUI's timing of `onAppear` and `onChange` is not tested here.
@MainActor
@Suite("The SwiftUI glue's screens")
struct RecordingTrailTests {
    typealias F = AdapterFixtures

    /// A view to attach the modifier to; never rendered.
    struct Probe: View {
        var body: Never { fatalError("never rendered") }
    }

    @Test("A TabView's screens give the tree of ScreenTree(tab:roots:paths:sheets:)")
    func tabScreens() {
        // Given the marketplace tab selected with a path, and a sheet
        let screens = TrailScreens(
            tab: 1, roots: [ShopDestination.home, .marketplace, .myProfile], paths: [[], [.item(id: "L-1")], []], sheets: [[.login]])
        // When its tree is taken
        let tree = screens.tree
        // Then it is the typed tree, and the state it shows
        #expect(tree == ScreenTree(tab: 1, roots: screens.roots, paths: screens.paths, sheets: screens.sheets))
        #expect(tree.navigationState(conditions: []).stacks == [[F.home], [F.marketplace, F.item("L-1")], [F.myProfile]])
        #expect(tree.modals == [[F.login]])
    }

    @Test("A single NavigationStack's screens give the tree of ScreenTree(root:path:sheets:)")
    func stackScreens() {
        // Given one stack with a path
        let screens = TrailScreens(root: ShopDestination.home, path: [.item(id: "L-9")])
        // When its tree is taken
        // Then it has no tab bar and is the typed tree
        #expect(screens.tree == ScreenTree(root: ShopDestination.home, path: [.item(id: "L-9")]))
        #expect(screens.tree.tab == nil)
    }

    @Test("The modifier is attached with each form, and what it reports records as the settler records it")
    func modifier() throws {
        // Given a settler and the screens a TabView shows
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        let roots: [ShopDestination] = [.home, .marketplace, .myProfile]
        // When the modifier is attached in its three forms (the glue type-checks against the framework or stand-in)
        _ = Probe().recordingTrail(settler, TrailScreens(tab: 0, roots: roots, paths: []))
        _ = Probe().recordingTrail(settler, tab: 0, roots: roots, paths: [[.item(id: "L-1")]])
        _ = Probe().recordingTrail(settler, root: ShopDestination.home, path: [])
        // And what its onAppear and onChange report is reported: the launch tree, then a push
        settler.screensChanged(TrailScreens(tab: 0, roots: roots, paths: []).tree)
        clock.now = 300
        settler.screensChanged(TrailScreens(tab: 0, roots: roots, paths: [[.item(id: "L-1")]]).tree)
        // Then the push is recorded
        #expect(settler.recorder.trail().steps.map(\.op) == [.push(F.item("L-1"))])
    }
}
