#if !canImport(UIKit)
import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import CrashtrailUIKit
import Foundation
import Testing
import UIKitStandIn

/// A tab bar with more tabs than it has room for: the tabs past the fourth are in the More tab, whose list and
/// screens are in the tab bar controller's `moreNavigationController`, as UIKit lays them out on an iPhone.
@MainActor
@Suite("The More tab")
struct MoreTabTests {
    /// Six tabs, each a destination of the manifest.
    static let manifestText = """
        app: com.example.sixtabs
        tabs: [one, two, three, four, five, six]
        destinations:
          one: { url: "six://one" }
          two: { url: "six://two" }
          three: { url: "six://three" }
          four: { url: "six://four" }
          five: { url: "six://five" }
          six: { url: "six://six" }
          detail: { url: "six://detail/{id}" }
        """

    enum Six: Codable, Hashable {
        case one, two, three, four, five, six
        case detail(id: String)
    }

    /// A screen of the six-tab app.
    final class SixScreen: UIViewController, TrailScreen {
        let destination: Six
        init(_ destination: Six) {
            self.destination = destination
            super.init()
        }
        var trailDestination: Six? { destination }
    }

    /// The app: six navigation controllers in a tab bar showing the first four and the More item, as UIKit does.
    @MainActor
    final class App {
        let clock = TestClock()
        let tabBar = UITabBarController()
        let tabs: [UINavigationController]
        let moreList = UIViewController()
        let trail: ViewControllerTrail

        init() throws {
            tabs = [Six.one, .two, .three, .four, .five, .six].map { root in
                let navigation = UINavigationController()
                navigation.viewControllers = [SixScreen(root)]
                return navigation
            }
            tabBar.viewControllers = tabs
            tabBar.tabBar.items = tabs.prefix(4).map(\.tabBarItem) + [tabBar.moreNavigationController.tabBarItem]
            tabBar.moreNavigationController.viewControllers = [moreList]
            let manifest = try Manifest(yaml: MoreTabTests.manifestText, source: "six.yml")
            let recorder = TrailRecorder(
                manifest: manifest, app: AdapterFixtures.app, session: AdapterFixtures.session, redactionKey: Array(repeating: 7, count: 32)
            )
            let clock = clock
            let tabBar = tabBar
            trail = ViewControllerTrail(settler: ScreenSettler(recorder: recorder, clock: { clock.now })) { tabBar }
            trail.install()
        }

        var ops: [Step.Operation] { trail.settler.recorder.trail().steps.map(\.op) }

        /// The user taps the More tab: the More navigation controller is selected, its list on top.
        func tapMore(at t: Int64) {
            clock.now = t
            tabBar.selectedViewController = tabBar.moreNavigationController
            tabBar.delegate?.tabBarController(tabBar, didSelect: tabBar.moreNavigationController)
        }

        /// The user picks tab `index` in the More list: UIKit moves the tab's screens above the list and selects it.
        func pick(_ index: Int, at t: Int64) {
            clock.now = t
            let tab = tabs[index]
            let screens = tab.viewControllers
            tab.viewControllers = []
            tabBar.moreNavigationController.viewControllers = [moreList] + screens
            tabBar.selectedViewController = tab
            tabBar.delegate?.tabBarController(tabBar, didSelect: tab)
        }
    }

    static func destination(_ name: String) -> Destination { Destination(name) }

    @Test("A tab picked in the More list is selected with its screens, which UIKit moved into the More stack")
    func tabPickedInMore() throws {
        // Given the app on its first tab
        let app = try App()
        // When the user taps More, then picks the sixth tab, then pushes a detail on it within the More stack
        app.tapMore(at: 100)
        app.pick(5, at: 300)
        app.clock.now = 600
        let more = app.tabBar.moreNavigationController
        more.viewControllers.append(SixScreen(.detail(id: "d-1")))
        app.trail.navigationController(more, didShow: more.viewControllers[2], animated: false)
        // Then the More list records nothing, the pick selects tab 5 and the push is on its stack
        #expect(app.ops == [.select(tab: 5), .push(Destination("detail", ["id": .string("d-1")]))])
        let tree = try #require(app.trail.screenTree)
        #expect(tree.tab == 5)
        #expect(tree.navigationState(conditions: []).stacks[5] == [Self.destination("six"), Destination("detail", ["id": .string("d-1")])])
    }

    @Test("While the More list shows, no tab is: the walk has no tab and nothing is reported")
    func moreList() throws {
        // Given the app, the More tab tapped
        let app = try App()
        app.tapMore(at: 100)
        // Then the walk has no tab, the trail no tree, and the recorder only the launch state
        #expect(ScreenTree(walking: app.tabBar).tab == nil)
        #expect(app.trail.screenTree == nil)
        #expect(app.trail.settler.recordedCount == 1)
        #expect(app.trail.settler.refusedCount == 0)
        #expect(app.ops.isEmpty)
    }

    @Test("A tab of the bar, selected again after a More tab, shows its own stack")
    func backToTheBar() throws {
        // Given the sixth tab picked in the More list
        let app = try App()
        app.tapMore(at: 100)
        app.pick(5, at: 300)
        // When the user taps the second tab
        app.clock.now = 700
        app.tabBar.selectedIndex = 1
        app.tabBar.delegate?.tabBarController(app.tabBar, didSelect: app.tabs[1])
        // Then tab 1 is selected, with its own stack
        #expect(app.ops == [.select(tab: 5), .select(tab: 1)])
        #expect(app.trail.screenTree?.tab == 1)
    }
}
#endif
