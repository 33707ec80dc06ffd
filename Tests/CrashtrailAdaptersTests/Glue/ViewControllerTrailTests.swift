#if !canImport(UIKit)
import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import CrashtrailUIKit
import Foundation
import Testing
import UIKitStandIn

/// The UIKit delegate driving a settler, over the stand-in's view controllers: the callbacks come in the order UIKit
/// makes them, with the view controllers already changed as UIKit changes them.
@MainActor
@Suite("The UIKit glue's delegate callbacks")
struct ViewControllerTrailTests {
    typealias F = AdapterFixtures

    /// PirateBay's tab bar (home, marketplace, my profile, each in a navigation controller), installed at 0 ms.
    @MainActor
    final class App {
        let clock = TestClock()
        let tabBar = TabBarDouble()
        let home = NavigationDouble(.home)
        let trail: ViewControllerTrail

        init() throws {
            tabBar.viewControllers = [home, NavigationDouble(.marketplace), NavigationDouble(.myProfile)]
            let clock = clock
            let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
            let tabBar = tabBar
            trail = ViewControllerTrail(settler: settler) { tabBar }
            trail.install()
        }

        var ops: [Step.Operation] { trail.settler.recorder.trail().steps.map(\.op) }
        var steps: [Step] { trail.settler.recorder.trail().steps }

        /// Pushes `destination` on the home stack as UIKit does: `willShow`, the stack changed, then `didShow`,
        /// animated with a coordinator ended at `end` ms, or at once.
        func push(_ destination: ShopDestination, at t: Int64, endingAt end: Int64? = nil) {
            clock.now = t
            let screen = ScreenController(destination)
            let coordinator = end.map { _ in CoordinatorDouble(interactive: false) }
            home.coordinator = coordinator
            trail.navigationController(home, willShow: screen, animated: coordinator != nil)
            home.viewControllers.append(screen)
            trail.navigationController(home, didShow: screen, animated: coordinator != nil)
            if let end, let coordinator {
                clock.now = end
                home.coordinator = nil
                coordinator.finish(cancelled: false)
            }
        }
    }

    @Test("install takes every container's delegate, keeps the app's behind it, and records the screen")
    func install() throws {
        // Given the app (install ran in its init)
        let app = try App()
        // Then the tab bar and every navigation controller have a delegate of the glue, and the launch tree is recorded
        #expect(app.tabBar.delegate != nil && app.tabBar.delegate !== app.trail)
        #expect(app.home.delegate != nil)
        #expect(app.trail.settler.recordedCount == 1)
        // When a sheet with the app's own navigation delegate is presented and reported
        let sheet = NavigationDouble(.login)
        let own = NavigationDelegateOfTheApp()
        sheet.delegate = own
        sheet.presentation = UIPresentationController(presentedViewController: sheet, presenting: app.tabBar)
        app.tabBar.presented = sheet
        app.clock.now = 500
        app.trail.reportScreens()
        // Then the sheet's navigation and presentation controllers are observed, the app's delegate behind the glue's,
        // and the presentation is recorded
        #expect(sheet.delegate != nil && sheet.delegate !== own)
        #expect(sheet.presentation?.delegate != nil)
        #expect(app.ops == [.present(F.login)])
        // And a push on the sheet reaches the app's delegate through the glue's
        app.clock.now = 900
        let settings = ScreenController(.settings)
        sheet.viewControllers.append(settings)
        sheet.delegate?.navigationController(sheet, didShow: settings, animated: false)
        #expect(own.shown == 1)
        #expect(app.ops == [.present(F.login), .push(F.settings)])
    }

    @Test("A push without animation is recorded at didShow, an animated one when its transition ends")
    func pushes() throws {
        // Given the app
        let app = try App()
        // When an item is pushed at once, then another animated from 1000 to 1350 ms
        app.push(.item(id: "L-1"), at: 400)
        app.push(.item(id: "L-2"), at: 1_000, endingAt: 1_350)
        // Then both pushes are recorded, the second after its start and observed at its end
        #expect(app.ops == [.push(F.item("L-1")), .push(F.item("L-2"))])
        let last = try #require(app.steps.last)
        #expect(last.t > 1_000 && last.t <= 1_350)
        #expect(app.trail.settler.lastObservationTime == 1_350)
    }

    @Test("A completed back swipe records a pop; a cancelled one records nothing")
    func backSwipes() throws {
        // Given an item pushed on home
        let app = try App()
        app.push(.item(id: "L-1"), at: 400)
        let item = try #require(app.home.viewControllers.last)
        // When the user swipes back and lets go too early: UIKit shows the pop at willShow and restores the stack
        app.clock.now = 1_000
        var swipe = CoordinatorDouble(interactive: true)
        app.home.coordinator = swipe
        app.trail.navigationController(app.home, willShow: app.home.viewControllers[0], animated: true)
        app.home.viewControllers.removeLast()
        app.clock.now = 1_200
        app.home.viewControllers.append(item)
        swipe.finish(cancelled: true)
        // Then nothing is recorded
        #expect(app.ops == [.push(F.item("L-1"))])
        #expect(app.trail.settler.refusedCount == 0)
        // When the user swipes back again and completes it (didShow comes with the pop)
        app.clock.now = 2_000
        swipe = CoordinatorDouble(interactive: true)
        app.home.coordinator = swipe
        app.trail.navigationController(app.home, willShow: app.home.viewControllers[0], animated: true)
        app.home.viewControllers.removeLast()
        app.clock.now = 2_300
        app.trail.navigationController(app.home, didShow: app.home.viewControllers[0], animated: true)
        swipe.finish(cancelled: false)
        // Then a pop is recorded after the swipe began
        #expect(app.ops == [.push(F.item("L-1")), .pop])
        let pop = try #require(app.steps.last)
        #expect(pop.t > 2_000 && pop.t <= 2_300)
    }

    @Test("A tab tap records a select")
    func tabTap() throws {
        // Given the app
        let app = try App()
        // When the marketplace tab is tapped
        app.clock.now = 300
        app.tabBar.selectedIndex = 1
        app.trail.tabBarController(app.tabBar, didSelect: try #require(app.tabBar.viewControllers?[1]))
        // Then a select of tab 1 is recorded
        #expect(app.ops == [.select(tab: 1)])
    }

    @Test("A sheet pulled down records a dismiss; a pull let go records nothing")
    func sheetPulledDown() throws {
        // Given the login sheet presented (in code, then reported) at 100 ms
        let app = try App()
        let sheet = NavigationDouble(.login)
        let presentation = UIPresentationController(presentedViewController: sheet, presenting: app.tabBar)
        app.clock.now = 100
        app.tabBar.presented = sheet
        app.trail.reportScreens()
        // When the user pulls it down from 1000 ms and lets go (the sheet stays)
        app.clock.now = 1_000
        var pull = CoordinatorDouble(interactive: true)
        sheet.coordinator = pull
        app.trail.presentationControllerWillDismiss(presentation)
        app.clock.now = 1_200
        pull.finish(cancelled: true)
        // Then only the presentation is recorded
        #expect(app.ops == [.present(F.login)])
        // When the user pulls it down again from 2000 ms and it goes
        app.clock.now = 2_000
        pull = CoordinatorDouble(interactive: true)
        sheet.coordinator = pull
        app.trail.presentationControllerWillDismiss(presentation)
        app.tabBar.presented = nil
        app.clock.now = 2_300
        pull.finish(cancelled: false)
        app.trail.presentationControllerDidDismiss(presentation)
        // Then one dismiss is recorded, after the pull began
        #expect(app.ops == [.present(F.login), .dismiss])
        let dismiss = try #require(app.steps.last)
        #expect(dismiss.t > 2_000 && dismiss.t <= 2_300)
    }

    @Test("An app's own delegate that still forwards to the glue records each change once")
    func forwarding() throws {
        // Given the app's own navigation delegate, set before install, forwarding to the glue
        let app = try App()
        let own = NavigationDelegateOfTheApp()
        own.trail = app.trail
        app.home.delegate = own
        // When UIKit calls the app's delegate for a push
        app.clock.now = 400
        let screen = ScreenController(.item(id: "L-3"))
        app.home.viewControllers.append(screen)
        app.home.delegate?.navigationController(app.home, didShow: screen, animated: false)
        // Then the push is recorded
        #expect(app.ops == [.push(F.item("L-3"))])
    }
}

/// A navigation delegate an app already has, which may still call the glue from its own methods, as the glue's
/// documentation asked before it kept the app's delegates itself.
final class NavigationDelegateOfTheApp: NSObject, UINavigationControllerDelegate {
    weak var trail: ViewControllerTrail?
    var shown = 0

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        shown += 1
        trail?.navigationController(navigationController, didShow: viewController, animated: animated)
    }
}
#endif
