#if !canImport(UIKit)
import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import CrashtrailUIKit
import Foundation
import Testing
import UIKitStandIn

/// What UIKit tells the glue by no delegate callback it had before.
///
/// A tab selected in code, split views and custom containers, the app's own delegates set before or after
/// `install()`, several scenes. The stand-in's view
/// controllers change as UIKit changes them, and its observed properties notify as Objective-C's do.
@MainActor
@Suite("The UIKit glue beyond its first delegates")
struct UIKitGapTests {
    typealias F = AdapterFixtures

    /// PirateBay's three tabs in a tab bar controller, observed by a trail at 0 ms.
    @MainActor
    final class App {
        let clock = TestClock()
        let tabBar = TabBarDouble()
        let home = NavigationDouble(.home)
        let trail: ViewControllerTrail

        /// - Parameters:
        ///   - singleStack: the manifest of one stack (root home, items) rather than PirateBay's tabs.
        ///   - root: the root view controller, when it is not the tab bar controller.
        ///   - install: whether the trail is installed at once.
        /// - Throws: `ManifestError` when a manifest does not load.
        init(singleStack: Bool = false, root: (@MainActor (App) -> UIViewController)? = nil, install: Bool = true) throws {
            tabBar.viewControllers = [home, NavigationDouble(.marketplace), NavigationDouble(.myProfile)]
            let clock = clock
            let recorder =
                singleStack
                ? TrailRecorder(
                    manifest: try Manifest(yaml: UIKitGapTests.singleStackManifest, source: "single.yml"), app: F.app, session: F.session,
                    redactionKey: Array(repeating: 7, count: 32))
                : try F.recorder()
            let settler = ScreenSettler(recorder: recorder, clock: { clock.now })
            let shown = RootBox()
            trail = ViewControllerTrail(settler: settler) { shown.root }
            shown.root = root?(self) ?? tabBar
            if install { trail.install() }
        }

        /// The root view controller, set once the app is made.
        @MainActor
        final class RootBox {
            var root: UIViewController?
        }

        var ops: [Step.Operation] { trail.settler.recorder.trail().steps.map(\.op) }
    }

    /// A manifest of one stack: home, and items above it.
    static let singleStackManifest = """
        app: com.example.single
        root: home
        destinations:
          home: { url: "single://home" }
          item: { url: "single://item/{id}" }
        """

    /// Lets the main actor run what was scheduled for its next turn (a report after a setter or a split view's change).
    static func nextTurn() async {
        for _ in 0..<3 { await Task.yield() }
    }

    // MARK: Tabs selected in code

    @Test("A tab selected in code, by index or by view controller, is recorded though no delegate is called")
    func tabSelectedInCode() async throws {
        // Given the app
        let app = try App()
        // When the app selects the marketplace by index at 200 ms, then my profile by view controller at 400 ms
        app.clock.now = 200
        app.tabBar.selectedIndex = 1
        await Self.nextTurn()
        app.clock.now = 400
        app.tabBar.selectedViewController = app.tabBar.viewControllers?[2]
        await Self.nextTurn()
        // Then both selections are recorded, each after the observation before it and by its own time
        #expect(app.ops == [.select(tab: 1), .select(tab: 2)])
        let times = app.trail.settler.recorder.trail().steps.map(\.t)
        #expect(times.count == 2 && times[0] > 0 && times[0] <= 200 && times[1] > 200 && times[1] <= 400)
        #expect(app.trail.settler.lastObservationTime == 400)
    }

    // MARK: Delegates of the app

    @Test("A delegate the app set before install is kept: calls reach it after the glue reports")
    func delegateBeforeInstall() throws {
        // Given the app's own navigation delegate on home, set before install
        let app = try App(install: false)
        let own = NavigationDelegateRecorder()
        app.home.delegate = own
        app.trail.install()
        // When UIKit pushes an item on home and calls home's delegate
        app.clock.now = 300
        let screen = ScreenController(.item(id: "L-1"))
        app.home.viewControllers.append(screen)
        app.home.delegate?.navigationController(app.home, willShow: screen, animated: false)
        app.home.delegate?.navigationController(app.home, didShow: screen, animated: false)
        // Then the push is recorded, and the app's delegate got both calls
        #expect(app.ops == [.push(F.item("L-1"))])
        #expect(own.calls == ["willShow item", "didShow item"])
        #expect(app.home.delegate !== own)
    }

    @Test("A delegate the app sets after install is taken in turn, and the glue stays the container's delegate")
    func delegateAfterInstall() throws {
        // Given the app installed, then its own tab bar and navigation delegates set
        let app = try App()
        let ownTabs = TabBarDelegateRecorder()
        let ownNavigation = NavigationDelegateRecorder()
        app.tabBar.delegate = ownTabs
        app.home.delegate = ownNavigation
        // When the user taps the marketplace tab, then goes back home and an item is pushed there
        app.clock.now = 200
        app.tabBar.selectedIndex = 1
        app.tabBar.delegate?.tabBarController(app.tabBar, didSelect: app.tabBar.viewControllers![1])
        app.clock.now = 400
        app.tabBar.selectedIndex = 0
        app.tabBar.delegate?.tabBarController(app.tabBar, didSelect: app.home)
        app.clock.now = 600
        let screen = ScreenController(.item(id: "L-2"))
        app.home.viewControllers.append(screen)
        app.home.delegate?.navigationController(app.home, didShow: screen, animated: false)
        // Then every change is recorded, and the app's delegates got UIKit's calls
        #expect(app.ops == [.select(tab: 1), .select(tab: 0), .push(F.item("L-2"))])
        #expect(ownTabs.selected == [1, 0])
        #expect(ownNavigation.calls == ["didShow item"])
        // And a delegate the app clears leaves the glue observing alone
        app.home.delegate = nil
        app.clock.now = 800
        app.home.viewControllers.removeLast()
        app.home.delegate?.navigationController(app.home, didShow: app.home.viewControllers[0], animated: false)
        #expect(app.ops.last == .pop)
        #expect(ownNavigation.calls == ["didShow item"])
    }

    @Test("A sheet's presentation delegate of the app is kept, and the pull down is recorded")
    func presentationDelegate() throws {
        // Given a login sheet with the app's own presentation delegate, presented in code and reported
        let app = try App()
        let sheet = NavigationDouble(.login)
        let presentation = UIPresentationController(presentedViewController: sheet, presenting: app.tabBar)
        sheet.presentation = presentation
        let own = PresentationDelegateRecorder()
        presentation.delegate = own
        app.clock.now = 100
        app.tabBar.presented = sheet
        app.trail.reportScreens()
        // When the user pulls it down and it goes
        app.clock.now = 1_000
        let pull = CoordinatorDouble(interactive: true)
        sheet.coordinator = pull
        presentation.delegate?.presentationControllerWillDismiss(presentation)
        app.tabBar.presented = nil
        app.clock.now = 1_300
        pull.finish(cancelled: false)
        presentation.delegate?.presentationControllerDidDismiss(presentation)
        // Then the presentation and the dismissal are recorded, and the app's delegate got both calls
        #expect(app.ops == [.present(F.login), .dismiss])
        #expect(own.calls == ["willDismiss", "didDismiss"])
    }

    // MARK: Split views and custom containers

    @Test("A split view shows its columns as one stack; a detail shown through its delegate is recorded")
    func splitView() async throws {
        // Given a split view whose primary column is home's stack and whose secondary shows an item
        let split = UISplitViewController()
        let primary = NavigationDouble(.home)
        split.viewControllers = [primary, NavigationDouble(.item(id: "L-1"))]
        let app = try App(singleStack: true, root: { _ in split })
        #expect(app.trail.screenTree?.stacks == [[F.home, F.item("L-1")]])
        // When the user opens another item: showDetailViewController asks the delegate, then the split view shows it
        app.clock.now = 500
        let detail = NavigationDouble(.item(id: "L-2"))
        let handled = split.delegate?.splitViewController(split, showDetail: detail, sender: nil)
        split.viewControllers = [primary, detail]
        await Self.nextTurn()
        // Then the split view shows it itself, and the new detail is recorded above the list (after the launch state's
        // push of the first)
        #expect(handled == false)
        #expect(app.ops == [.push(F.item("L-1")), .pop, .push(F.item("L-2"))])
        // When it collapses to one column (compact width): the detail's stack is pushed on the primary's
        app.clock.now = 900
        primary.viewControllers = [ScreenController(.home), detail]
        split.viewControllers = [primary]
        split.delegate?.splitViewControllerDidCollapse(split)
        await Self.nextTurn()
        // Then the state is the same: nothing more is recorded
        #expect(app.ops == [.push(F.item("L-1")), .pop, .push(F.item("L-2"))])
        #expect(app.trail.screenTree?.stacks == [[F.home, F.item("L-2")]])
    }

    @Test("A split view delegate of the app decides how a detail shows, and the glue records what it shows")
    func splitViewDelegateOfTheApp() async throws {
        // Given a split view with the app's delegate, which shows details itself (it pushes them on the primary)
        let split = UISplitViewController()
        let primary = NavigationDouble(.home)
        split.viewControllers = [primary]
        let own = SplitDelegateRecorder()
        own.showsDetailsItself = true
        split.delegate = own
        let app = try App(singleStack: true, root: { _ in split })
        // When the user opens an item: the app's delegate shows it
        app.clock.now = 500
        let detail = ScreenController(.item(id: "L-3"))
        let handled = split.delegate?.splitViewController(split, showDetail: detail, sender: nil)
        primary.viewControllers.append(detail)
        await Self.nextTurn()
        // Then the app's answer stands and the push is recorded
        #expect(handled == true)
        #expect(own.details == 1)
        #expect(app.ops == [.push(F.item("L-3"))])
    }

    @Test("A custom container is walked into; show(_:sender:) on a navigation stack pushes through its delegate")
    func customContainer() throws {
        // Given the app's own root container holding the tab bar controller (as an app's launch switcher does)
        let container = UIViewController()
        let app = try App(root: { app in
            container.addChild(app.tabBar)
            app.tabBar.didMove(toParent: container)
            return container
        })
        // Then the tab bar is found in it
        #expect(app.trail.screenTree?.tab == 0)
        #expect(app.home.delegate != nil)
        // When a screen calls show(_:sender:) and UIKit pushes it on home, calling home's delegate
        app.clock.now = 300
        let screen = ScreenController(.item(id: "L-4"))
        app.home.viewControllers[0].show(screen, sender: nil)
        app.home.viewControllers.append(screen)
        app.home.delegate?.navigationController(app.home, didShow: screen, animated: false)
        // Then the push is recorded
        #expect(app.ops == [.push(F.item("L-4"))])
    }

    @Test("A container that keeps children it does not show says which it shows; its change is reported by the app")
    func trailContainer() throws {
        // Given a pager of two item pages, the first shown, pushed on home
        let pager = Pager(pages: [.item(id: "L-5"), .item(id: "L-6")])
        let navigation = NavigationDouble(.home)
        navigation.viewControllers.append(pager)
        let app = try App(singleStack: true, root: { _ in navigation })
        #expect(app.trail.screenTree?.stacks == [[F.home, F.item("L-5")]])
        // When it shows the second page (its own transition, which no delegate hears of), then tells the glue
        app.clock.now = 400
        pager.current = 1
        app.trail.reportScreens()
        // Then the change is recorded (after the launch state's push of the first page)
        #expect(app.ops == [.push(F.item("L-5")), .pop, .push(F.item("L-6"))])
    }

    // MARK: Several scenes

    @Test("With a trail per window, only the key window's screens are recorded, and a window made key is recorded")
    func severalScenes() async throws {
        // Given two windows, each its own tab bar and trail, one settler; the first window key
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        func tabs(_ first: ShopDestination) -> (UIWindow, NavigationDouble) {
            let window = UIWindow()
            let tabBar = TabBarDouble()
            let home = NavigationDouble(first)
            tabBar.viewControllers = [home, NavigationDouble(.marketplace), NavigationDouble(.myProfile)]
            window.rootViewController = tabBar
            return (window, home)
        }
        let (first, firstHome) = tabs(.home)
        let (second, secondHome) = tabs(.home)
        first.makeKey()
        let firstTrail = ViewControllerTrail(settler: settler, window: first)
        let secondTrail = ViewControllerTrail(settler: settler, window: second)
        firstTrail.install()
        secondTrail.install()
        #expect(firstTrail.isReporting && !secondTrail.isReporting)
        // When an item is pushed in the second window while the first is key
        clock.now = 200
        let hidden = ScreenController(.item(id: "in-second"))
        secondHome.viewControllers.append(hidden)
        secondHome.delegate?.navigationController(secondHome, didShow: hidden, animated: false)
        // Then nothing is recorded
        #expect(settler.recorder.trail().steps.isEmpty)
        // When the user turns to the second window (it becomes key), then pushes in the first one, in the back
        clock.now = 500
        second.makeKey()
        await Self.nextTurn()
        clock.now = 700
        let back = ScreenController(.item(id: "in-first"))
        firstHome.viewControllers.append(back)
        firstHome.delegate?.navigationController(firstHome, didShow: back, animated: false)
        // Then the second window's screens are recorded when it became key, and the first window's push is not
        #expect(settler.recorder.trail().steps.map(\.op) == [.push(F.item("in-second"))])
        #expect(settler.lastObservationTime == 500)
    }
}

/// A pager: all its pages are children, one shown.
final class Pager: UIViewController, TrailContainer {
    let pages: [ScreenController]
    var current = 0

    init(pages: [ShopDestination]) {
        self.pages = pages.map(ScreenController.init)
        super.init()
        for page in self.pages { addChild(page) }
    }

    var shownChildren: [UIViewController] { [pages[current]] }
}

/// A navigation delegate of the app, noting the calls it gets.
final class NavigationDelegateRecorder: NSObject, UINavigationControllerDelegate {
    var calls: [String] = []

    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {
        calls.append("willShow \(name(viewController))")
    }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        calls.append("didShow \(name(viewController))")
    }

    private func name(_ viewController: UIViewController) -> String {
        guard let screen = viewController as? ScreenController, let destination = screen.destination else { return "?" }
        switch destination {
        case .item: return "item"
        default: return "\(destination)"
        }
    }
}

/// A tab bar delegate of the app, noting the tabs selected.
final class TabBarDelegateRecorder: NSObject, UITabBarControllerDelegate {
    var selected: [Int] = []

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        selected.append(tabBarController.viewControllers?.firstIndex { $0 === viewController } ?? -1)
    }
}

/// A presentation delegate of the app, noting the calls it gets.
final class PresentationDelegateRecorder: NSObject, UIAdaptivePresentationControllerDelegate {
    var calls: [String] = []

    func presentationControllerWillDismiss(_ presentationController: UIPresentationController) { calls.append("willDismiss") }
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) { calls.append("didDismiss") }
}

/// A split view delegate of the app that may show details itself.
final class SplitDelegateRecorder: NSObject, UISplitViewControllerDelegate {
    var showsDetailsItself = false
    var details = 0

    func splitViewController(_ splitViewController: UISplitViewController, showDetail vc: UIViewController, sender: Any?) -> Bool {
        details += 1
        return showsDetailsItself
    }
}
#endif
