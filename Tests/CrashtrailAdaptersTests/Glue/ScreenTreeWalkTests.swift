#if !canImport(UIKit)
import CrashtrailAdapters
import CrashtrailCore
import CrashtrailUIKit
import Testing
import UIKitStandIn

/// The UIKit walk, over the stand-in's view controllers (on Apple platforms these tests are compiled out).
@MainActor
@Suite("Walking the view controllers into a screen tree")
struct ScreenTreeWalkTests {
    typealias F = AdapterFixtures

    @Test("A tab bar of navigation stacks, a presented sheet and controllers that are no destination")
    func tabBarWithModals() {
        // Given a tab bar: home with an item, a screen showing none and an unmapped controller pushed, the marketplace, and a profile screen
        // with no navigation controller; a login sheet presented over it, and an alert over the sheet
        let home = NavigationDouble(.home, .item(id: "L-1"), nil)
        home.viewControllers.append(UIViewController())
        let tabBar = TabBarDouble()
        tabBar.viewControllers = [home, NavigationDouble(.marketplace), ScreenController(.myProfile)]
        tabBar.selectedIndex = 1
        let sheet = NavigationDouble(.login)
        sheet.presented = UIViewController()
        tabBar.presented = sheet
        // When it is walked
        let tree = ScreenTree(walking: tabBar)
        // Then the tab, the three stacks and the sheet are there; the container and the alert are skipped
        #expect(tree.tab == 1)
        #expect(tree.unencodable.isEmpty)
        let state = tree.navigationState(conditions: [])
        #expect(state.stacks == [[F.home, F.item("L-1")], [F.marketplace], [F.myProfile]])
        #expect(state.modals == [[F.login]])
    }

    @Test("A navigation controller without a tab bar, with a tab bar presented over it")
    func singleStack() {
        // Given one navigation stack presenting a tab bar controller whose second tab is selected
        let navigation = NavigationDouble(.home, .item(id: "L-9"))
        let presentedTabs = TabBarDouble()
        presentedTabs.viewControllers = [NavigationDouble(.marketplace), NavigationDouble(.compose(id: "p-7"))]
        presentedTabs.selectedIndex = 1
        navigation.presented = presentedTabs
        // When it is walked
        let tree = ScreenTree(walking: navigation)
        // Then there is no tab bar and the modal is the selected tab's stack
        #expect(tree.tab == nil)
        #expect(tree.stacks == [[F.home, F.item("L-9")]])
        #expect(tree.modals == [[F.compose("p-7")]])
    }

    @Test("A destination that does not encode is named, not dropped silently")
    func unencodable() {
        // Given a screen whose destination holds a number a trail cannot carry
        let navigation = NavigationDouble(.home, .price(.nan))
        // When it is walked
        let tree = ScreenTree(walking: navigation)
        // Then the failure is kept for the settler to refuse the tree
        #expect(tree.unencodable.count == 1)
        #expect(tree.stacks == [[F.home, nil]])
    }
}
#endif
