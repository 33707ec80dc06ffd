import CrashtrailCore
import CrashtrailReplay
import Testing

/// The first difference between a replayed and a recorded state, named precisely.
@Suite("State differences")
struct StateDifferenceTests {
    typealias M = TestManifests

    @Test(
        "each field's first difference reads as a sentence",
        arguments: [
            (M.tabs(2), M.tabs(0), "tab: replayed 2, recorded 0"),
            (
                M.tabs(0, [[], [], [M.d("item", ["id": "L-1"])]]), M.tabs(0),
                #"stacks[2][1]: replayed {"item":{"id":"L-1"}}, recorded none"#
            ),
            (
                M.tabs(0, modals: [[M.d("login")]]), M.tabs(0, modals: [[M.d("ageCheck")]]),
                #"modals[0][0]: replayed {"login":{}}, recorded {"ageCheck":{}}"#
            ),
            (M.tabs(0), M.tabs(0, modals: [[M.d("login")]]), #"modals[0]: replayed none, recorded [{"login":{}}]"#),
            (M.tabs(0, conditions: ["signedIn"]), M.tabs(0), "conditions: replayed has signedIn, recorded lacks it"),
            (M.tabs(0, conditions: ["a"]), M.tabs(0, conditions: ["a", "b"]), "conditions: replayed lacks b, recorded has it"),
            (
                M.tabs(0, pending: PendingDestination(M.d("rumShop"), mode: .open)), M.tabs(0),
                #"pending: replayed {"mode":"open","to":{"rumShop":{}}}, recorded none"#
            ),
            (NavigationState(tab: nil, stacks: [[M.d("welcome")]]), M.tabs(1), "tab: replayed none (no tab bar), recorded 1"),
        ])
    func sentences(_ replayed: NavigationState, _ recorded: NavigationState, _ sentence: String) {
        #expect(StateDifference.first(replayed: replayed, recorded: recorded)?.description == sentence)
    }

    @Test("equal states have no difference")
    func equal() {
        #expect(StateDifference.first(replayed: M.tabs(1, conditions: ["x"]), recorded: M.tabs(1, conditions: ["x"])) == nil)
    }
}
