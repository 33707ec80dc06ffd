import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import Testing

@MainActor
@Suite("Settling screen changes before recording them")
struct ScreenSettlerTests {
    typealias F = AdapterFixtures

    /// The home tab with `pushed` on top of its root.
    static func homeTree(_ pushed: Destination...) -> ScreenTree {
        ScreenTree(tab: 0, stacks: [[F.home] + pushed, [F.marketplace], [F.myProfile]])
    }

    /// A settler over a fresh recorder, the launch tree observed at 10 ms and `item` L-1 pushed at 100 ms.
    static func settlerOnItem(clock: TestClock) throws -> ScreenSettler {
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        clock.now = 10
        settler.screensChanged(homeTree())
        clock.now = 100
        settler.screensChanged(homeTree(F.item("L-1")))
        return settler
    }

    @Test("A cancelled interactive back swipe records nothing")
    func cancelledSwipe() throws {
        // Given an item pushed on the home tab
        let clock = TestClock()
        let settler = try Self.settlerOnItem(clock: clock)
        let before = settler.recorder.trail().steps
        // When the user swipes back (the controllers already show the pop) and lets go too early
        clock.now = 200
        settler.transitionBegan(interactive: true)
        clock.now = 210
        settler.screensChanged(Self.homeTree())
        clock.now = 450
        settler.transitionEnded(cancelled: true)
        // Then no step is recorded and the item is still the state recorded
        #expect(settler.recorder.trail().steps == before)
        #expect(settler.lastRecordedState == Self.homeTree(F.item("L-1")).navigationState(conditions: []))
        #expect(settler.refusedCount == 0)
    }

    @Test("A cancelled swipe whose end shows the same tree records nothing either")
    func cancelledSwipeShowingTree() throws {
        // Given an item pushed on the home tab
        let clock = TestClock()
        let settler = try Self.settlerOnItem(clock: clock)
        let recorded = settler.recordedCount
        // When the swipe is cancelled and the glue walks the tree again at its end
        clock.now = 200
        settler.transitionBegan(interactive: true)
        settler.screensChanged(Self.homeTree())
        clock.now = 450
        settler.transitionEnded(cancelled: true, showing: Self.homeTree(F.item("L-1")))
        // Then nothing more is recorded
        #expect(settler.recordedCount == recorded)
        #expect(settler.recorder.trail().steps.map(\.op) == [.push(F.item("L-1"))])
    }

    @Test("A completed back swipe records a pop, observed at its end")
    func completedSwipe() throws {
        // Given an item pushed on the home tab at 100 ms
        let clock = TestClock()
        let settler = try Self.settlerOnItem(clock: clock)
        // When the user swipes back from 200 ms to 480 ms
        clock.now = 200
        settler.transitionBegan(interactive: true)
        clock.now = 210
        settler.screensChanged(Self.homeTree())
        clock.now = 480
        settler.transitionEnded(cancelled: false)
        // Then one pop is recorded after the swipe began and no later than its end, observed at the end
        let last = try #require(settler.recorder.trail().steps.last)
        #expect(last.op == .pop)
        #expect(last.t > 200 && last.t <= 480)
        #expect(settler.lastObservationTime == 480)
        #expect(settler.recorder.currentState == Self.homeTree().navigationState(conditions: []))
    }

    @Test("A tab tap records a select")
    func tabTap() throws {
        // Given the launch tree
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // When the marketplace tab is tapped at 300 ms
        clock.now = 300
        settler.screensChanged(ScreenTree(tab: 1, stacks: F.rootStacks))
        // Then a select of tab 1 is recorded
        #expect(settler.recorder.trail().steps == [Step(t: 1, .select(tab: 1))])
        #expect(settler.lastObservationTime == 300)
    }

    @Test("A sheet swiped down records a dismiss")
    func sheetSwipedDown() throws {
        // Given the login sheet presented over the home tab
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        clock.now = 100
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks, modals: [[F.login]]))
        // When the user pulls it down from 1000 ms and it goes (presentationControllerDidDismiss reports the tree)
        clock.now = 1_000
        settler.transitionBegan(interactive: true)
        clock.now = 1_300
        settler.transitionEnded(cancelled: false)
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // Then a dismiss is recorded once, after the pull began
        let ops = settler.recorder.trail().steps.map(\.op)
        #expect(ops == [.present(F.login), .dismiss])
        let dismiss = try #require(settler.recorder.trail().steps.last)
        #expect(dismiss.t > 1_000 && dismiss.t <= 1_300)
        #expect(settler.recordedCount == 3)
    }

    @Test("Changes during a transition are coalesced into one observation at its end")
    func coalesced() throws {
        // Given the launch tree
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // When two pushes and a sheet are reported while transitions (one nested) run
        clock.now = 100
        settler.transitionBegan(interactive: false)
        settler.screensChanged(Self.homeTree(F.item("L-1")))
        clock.now = 150
        settler.transitionBegan(interactive: false)
        settler.screensChanged(Self.homeTree(F.item("L-1"), F.settings))
        clock.now = 300
        settler.transitionEnded(cancelled: false)
        let midway = settler.recorder.trail().steps
        let withSheet = ScreenTree(
            tab: 0, stacks: [[F.home, F.item("L-1"), F.settings], [F.marketplace], [F.myProfile]], modals: [[F.login]])
        settler.screensChanged(withSheet)
        clock.now = 900
        settler.transitionEnded(cancelled: false)
        // Then nothing is recorded before the last transition ends, and the final tree is one observation at 900 ms
        #expect(midway.isEmpty)
        #expect(settler.recorder.trail().steps.map(\.op) == [.push(F.item("L-1")), .push(F.settings), .present(F.login)])
        #expect(settler.recordedCount == 2)
        #expect(settler.lastObservationTime == 900)
        #expect(settler.recorder.trail().steps.allSatisfy { $0.t > 100 && $0.t <= 900 })
    }

    @Test("Identical consecutive trees record nothing, and a time not after the previous one is moved after it")
    func identicalTreesAndTimes() throws {
        // Given the launch tree observed at 500 ms
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        clock.now = 500
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // When the same tree comes again, then a new one within the same millisecond and one from a clock that stepped back
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        settler.screensChanged(ScreenTree(tab: 1, stacks: F.rootStacks))
        clock.now = 400
        settler.screensChanged(ScreenTree(tab: 2, stacks: F.rootStacks))
        // Then the repeat records nothing and the others are observed at 501 and 502 ms
        #expect(settler.recordedCount == 3)
        #expect(settler.lastObservationTime == 502)
        #expect(settler.recorder.trail().steps.map(\.op) == [.select(tab: 1), .select(tab: 2)])
        #expect(settler.refusedCount == 0)
    }

    @Test("A condition change with the same screens is recorded")
    func conditionsChange() throws {
        // Given the launch tree and a user who is not signed in
        let clock = TestClock()
        let box = ConditionsBox()
        let settler = ScreenSettler(recorder: try F.recorder(), conditions: { box.conditions }, clock: { clock.now })
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // When the user signs in behind a transition, then out without one
        clock.now = 100
        settler.transitionBegan(interactive: false)
        box.conditions = ["signedIn"]
        settler.conditionsChanged()
        clock.now = 200
        settler.transitionEnded(cancelled: false)
        clock.now = 300
        box.conditions = []
        settler.conditionsChanged()
        // Then a satisfy and a revoke are recorded
        #expect(settler.recorder.trail().steps.map(\.op) == [.satisfy("signedIn"), .revoke("signedIn")])
    }

    @Test("A pushed value that does not encode is refused, though the state without it looks unchanged")
    func unencodablePush() throws {
        // Given the launch tree recorded
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now })
        let roots: [ShopDestination] = [.home, .marketplace, .myProfile]
        settler.screensChanged(ScreenTree(tab: 0, roots: roots, paths: []))
        // When a screen whose value does not encode is pushed
        clock.now = 100
        settler.screensChanged(ScreenTree(tab: 0, roots: roots, paths: [[.price(9.99)]]))
        // Then it is refused and nothing is recorded
        #expect(settler.refusedCount == 1)
        #expect(settler.refused.first?.error.code == .invalidState)
        #expect(settler.recorder.trail().steps.isEmpty)
    }

    @Test("Refused observations are kept, bounded and counted, and nothing throws")
    func refusals() throws {
        // Given a settler that keeps two refusals
        let clock = TestClock()
        let settler = ScreenSettler(recorder: try F.recorder(), clock: { clock.now }, refusalLimit: 2)
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // When it sees a tree with two tabs, one with an unknown screen, one with a value that does not encode and
        // two sheet changes 10 ms apart
        clock.now = 100
        settler.screensChanged(ScreenTree(tab: 0, stacks: [[F.home], [F.marketplace]]))
        clock.now = 200
        settler.screensChanged(ScreenTree(tab: 0, stacks: [[F.home, Destination("treasureMap")], [F.marketplace], [F.myProfile]]))
        clock.now = 300
        settler.screensChanged(ScreenTree(tab: 0, roots: [ShopDestination.home, .marketplace, .myProfile], paths: [[.price(2.5)]]))
        clock.now = 400
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks, modals: [[F.login]]))
        clock.now = 410
        settler.screensChanged(ScreenTree(tab: 0, stacks: F.rootStacks))
        // Then four are refused, the last two kept with their reasons, and the login sheet's presentation recorded
        #expect(settler.refusedCount == 4)
        #expect(settler.refused.map(\.error.code) == [.invalidState, .tooClose])
        #expect(settler.refused.map(\.t) == [300, 410])
        #expect(settler.recorder.trail().steps.map(\.op) == [.present(F.login)])
        // And a later change is recorded from the last recorded state
        clock.now = 1_000
        settler.screensChanged(ScreenTree(tab: 1, stacks: F.rootStacks))
        // (the push of the marketplace tab root dismisses the sheet and selects the tab: SPEC 4 rule 3)
        #expect(settler.recorder.trail().steps.map(\.op) == [.present(F.login), .push(F.marketplace)])
    }
}
