import CrashtrailAdapters
import CrashtrailCore
import Testing

@Suite("A screen tree as a navigation state")
struct ScreenTreeTests {
    typealias F = AdapterFixtures

    @Test("Tabs: the selected tab and one stack per tab")
    func tabs() {
        // Given a tab bar on its second tab, an item pushed there
        let tree = ScreenTree(tab: 1, stacks: [[F.home], [F.marketplace, F.item("L-1")], [F.myProfile]])
        // When it is turned into a state
        let state = tree.navigationState(conditions: [])
        // Then the tab and stacks are the tree's, with no modal, condition or pending destination
        #expect(state == NavigationState(tab: 1, stacks: [[F.home], [F.marketplace, F.item("L-1")], [F.myProfile]]))
    }

    @Test("No tab bar: a single stack")
    func singleStack() {
        // Given a tree of one stack
        let tree = ScreenTree(stack: [F.welcome, F.settings])
        // When it is turned into a state
        let state = tree.navigationState(conditions: [])
        // Then no tab is selected and the stack is the only one
        #expect(state.tab == nil)
        #expect(state.stacks == [[F.welcome, F.settings]])
    }

    @Test("Modals keep their order and their own stacks")
    func modalsWithStacks() {
        // Given two sheets over the tabs, the lower one with a pushed screen
        let tree = ScreenTree(tab: 0, stacks: F.rootStacks, modals: [[F.item("L-1"), F.settings], [F.login]])
        // When it is turned into a state
        let state = tree.navigationState(conditions: [])
        // Then the modals are bottom to top, each root first
        #expect(state.modals == [[F.item("L-1"), F.settings], [F.login]])
        #expect(state.topDestination == F.login)
    }

    @Test("Screens that are no destination are skipped, and a modal of none goes")
    func nilEntriesSkipped() {
        // Given an unmapped container inside a stack, a sheet whose root is unmapped and an alert on top
        let tree = ScreenTree(
            tab: 0, stacks: [[F.home, nil, F.item("L-1")], [F.marketplace], [F.myProfile]],
            modals: [[nil, F.settings], [nil]])
        // When it is turned into a state
        let state = tree.navigationState(conditions: [])
        // Then the destinations stay in order without them and the alert is no modal
        #expect(state.stacks[0] == [F.home, F.item("L-1")])
        #expect(state.modals == [[F.settings]])
    }

    @Test("The conditions are the ones given")
    func conditions() {
        // Given a tree
        let tree = ScreenTree(tab: 2, stacks: F.rootStacks)
        // When it is turned into a state while the user is signed in
        let state = tree.navigationState(conditions: ["signedIn"])
        // Then the state holds that condition and nothing pending
        #expect(state.conditions == ["signedIn"])
        #expect(state.pending == nil)
    }

    @Test("Typed paths per tab and sheets become destinations")
    func typedTabs() {
        // Given SwiftUI's selected tab, roots, paths and a sheet with a path of its own
        let tree = ScreenTree(
            tab: 1, roots: [ShopDestination.home, .marketplace, .myProfile], paths: [[], [.page(4), .item(id: "L-1")]],
            sheets: [[.compose(id: "p-7"), .item(id: "L-2")]])
        // When it is turned into a state
        let state = tree.navigationState(conditions: ["signedIn"])
        // Then each value is written as its Codable form, and a tab without a path shows its root alone
        #expect(tree.unencodable.isEmpty)
        #expect(state.stacks == [[F.home], [F.marketplace, Destination("page", ["_0": .int(4)]), F.item("L-1")], [F.myProfile]])
        #expect(state.modals == [[F.compose("p-7"), F.item("L-2")]])
    }

    @Test("A typed path without tabs")
    func typedSingleStack() {
        // Given a root and its path
        let tree = ScreenTree(root: ShopDestination.home, path: [.item(id: "L-9")])
        // When it is turned into a state
        let state = tree.navigationState(conditions: [])
        // Then it is one stack with no tab bar
        #expect(state == NavigationState(tab: nil, stacks: [[F.home, F.item("L-9")]]))
    }

    @Test("A value that does not encode is reported, not thrown")
    func unencodable() throws {
        // Given a path holding a number that is not finite, which no destination holds (SPEC 18 takes finite Doubles)
        let tree = ScreenTree(
            tab: 0, roots: [ShopDestination.home, .marketplace, .myProfile], paths: [[.price(.nan), .item(id: "L-1")]])
        // When it is built
        let failure = try #require(tree.unencodable.first)
        // Then the failure is named and the value is left out of its stack
        #expect(tree.unencodable.count == 1)
        #expect(failure.code == .unencodable || failure.code == .invalidDestination)
        #expect(tree.navigationState(conditions: []).stacks[0] == [F.home, F.item("L-1")])
    }
}
