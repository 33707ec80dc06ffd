import CrashtrailCore
import CrashtrailReplay
import Testing

/// The shortest links of SPEC section 9 on hand-made final states: order, preconditions, pending handling and
/// every reason a screen cannot be linked.
@Suite("Shortest links")
struct ShortestLinksTests {
    typealias M = TestManifests

    @Test("the launch state needs no links and reproduces")
    func launchState() throws {
        for manifest in [try M.piratebay(), try M.lighthouse()] {
            let links = ShortestLinks(manifest: manifest, final: manifest.launchState)
            #expect(links.urls.isEmpty)
            #expect(links.preconditions.isEmpty)
            #expect(links.reproduces)
        }
    }

    @Test(
        "a screen that cannot be linked is named with its reason, and the links stop before it",
        arguments: [
            (M.tabs(0, [[M.d("item", ["id": "L-1"]), M.d("item")]]), "stacks[0][2]", "no-url", 1),
            (M.tabs(0, [[M.d("item", ["id": "L-1"]), M.d("kraken")]]), "stacks[0][2]", "unknown-destination", 1),
            (M.tabs(0, [[M.d("item", ["id": "L-1", "extra": 1])]]), "stacks[0][1]", "url-names-another-destination", 0),
            (M.tabs(0, modals: [[M.d("item", ["id": "L-1"])]]), "modals[0][0]", "modal-root-not-modal", 0),
            (M.tabs(0, [[M.d("optOut")]]), "stacks[0][1]", "pushed-modal", 0),
            (M.tabs(0, [[M.d("marketplace")]]), "stacks[0][1]", "gate-or-tab-root-above-root", 0),
            (M.tabs(0, [[M.d("welcome")]]), "stacks[0][1]", "gate-or-tab-root-above-root", 0),
            (
                M.tabs(2, [[], [], [M.d("settings")]], modals: [[M.d("login"), M.d("home")]]), "modals[0][1]",
                "gate-or-tab-root-above-root", 3
            ),
        ])
    func unlinkable(_ state: NavigationState, _ location: String, _ reason: String, _ linkCount: Int) throws {
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(links.unreproducible.map(\.reason.code) == [reason])
        #expect(links.unreproducible.map(\.location) == [location])
        #expect(links.urls.count == linkCount)
        #expect(!links.reproduces)
    }

    @Test("other tabs first, then the selected one, then modals bottom to top")
    func order() throws {
        let state = M.tabs(
            2, [[M.d("item", ["id": "A"])], [M.d("page", ["_0": 4])], [M.d("settings")]],
            modals: [[M.d("compose", ["id": "P-1"])], [M.d("ageCheck"), M.d("search", ["text": "x y"])]])
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(
            links.urls == [
                "piratebay://home", "piratebay://item/A", "piratebay://marketplace", "piratebay://marketplace/page/4",
                "piratebay://me", "piratebay://settings", "piratebay://pirate/P-1/message", "piratebay://age-check",
                "piratebay://search?q=x%20y",
            ])
        #expect(links.preconditions == ["signedIn"])
        #expect(links.reproduces, "\(links.mismatch?.description ?? "")")
    }

    @Test("the selected tab 0 is not linked when no other tab was")
    func tabZeroRootSkipped() throws {
        let links = ShortestLinks(manifest: try M.piratebay(), final: M.tabs(0, [[M.d("settings")]]))
        #expect(links.urls == ["piratebay://settings"])
        #expect(links.reproduces)
    }

    @Test("a pending destination rebuilds its flow modal; conditions it requires before that flow's become preconditions")
    func pendingBehindEarlierCondition() throws {
        // rumShop requires [signedIn, ageVerified]; it waits on ageCheck, so signedIn must hold first.
        let state = M.tabs(0, modals: [[M.d("ageCheck")]], pending: PendingDestination(M.d("rumShop"), mode: .push))
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(links.urls == ["piratebay://shop/rum"])
        #expect(links.preconditions == ["signedIn"])
        #expect(links.reproduces, "\(links.mismatch?.description ?? "")")
    }

    @Test("screens pushed inside the flow modal follow the pending destination's link")
    func pendingWithPushesInsideFlow() throws {
        let state = M.tabs(
            1, [[], [M.d("item", ["id": "L-3"])], []], modals: [[M.d("login"), M.d("settings")]],
            pending: PendingDestination(M.d("compose", ["id": "P-2"]), mode: .present))
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(
            links.urls == [
                "piratebay://marketplace", "piratebay://item/L-3", "piratebay://pirate/P-2/message", "piratebay://settings",
            ])
        #expect(links.preconditions.isEmpty)
        #expect(links.reproduces, "\(links.mismatch?.description ?? "")")
    }

    @Test("a pending destination whose condition already holds cannot be linked; the rest is linked as if nothing were pending")
    func pendingFlowUnreachable() throws {
        let state = M.tabs(
            0, [[M.d("item", ["id": "L-5"])]], modals: [[M.d("login")]], conditions: ["signedIn"],
            pending: PendingDestination(M.d("downloadUserData"), mode: .push))
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(links.unreproducible.map(\.reason.code) == ["pending-flow-unreachable"])
        #expect(links.unreproducible.first?.location == "pending")
        #expect(links.urls == ["piratebay://item/L-5", "piratebay://login"])
        #expect(!links.reproduces)
    }

    @Test("an unlinkable pending destination is listed first, then the first other unlinkable screen")
    func pendingAndAnotherScreen() throws {
        let state = M.tabs(
            0, [[M.d("kraken")]], modals: [], pending: PendingDestination(M.d("compose", ["id": "P-1"]), mode: .present))
        let links = ShortestLinks(manifest: try M.piratebay(), final: state)
        #expect(links.unreproducible.map(\.reason.code) == ["pending-flow-unreachable", "unknown-destination"])
        #expect(links.urls.isEmpty)
    }

    @Test("without a tab bar: the root is linked unless it is the app's launch root")
    func noTabBar() throws {
        let lighthouse = try M.lighthouse()
        let atRoot = NavigationState(tab: nil, stacks: [[M.d("splash"), M.d("settings")]])
        #expect(ShortestLinks(manifest: lighthouse, final: atRoot).urls == ["lighthouse://settings"])
        let afterGate = NavigationState(
            tab: nil, stacks: [[M.d("dashboard"), M.d("lamp", ["serial": "S 1"])]], modals: [[M.d("help", ["topic": "a"])]])
        let links = ShortestLinks(manifest: lighthouse, final: afterGate)
        #expect(links.urls == ["lighthouse://dashboard", "lighthouse://lamps/S%201", "lighthouse://help?topic=a"])
        #expect(links.preconditions == ["paired"])
        #expect(links.reproduces)
        // An app with tabs behind a gate links the gate.
        let gated = NavigationState(tab: nil, stacks: [[M.d("welcome"), M.d("settings")]])
        #expect(ShortestLinks(manifest: try M.piratebay(), final: gated).urls == ["piratebay://welcome", "piratebay://settings"])
    }

    @Test("links that every check accepts but do not rebuild the state say where they fall short")
    func mismatchIsReported() throws {
        // A base state with a tab stack rooted on another tab's root cannot be rebuilt by links.
        let odd = NavigationState(
            tab: 1, stacks: [[M.d("home")], [M.d("home"), M.d("settings")], [M.d("myProfile")]])
        let links = ShortestLinks(manifest: try M.piratebay(), final: odd)
        #expect(links.unreproducible.isEmpty)
        #expect(!links.reproduces)
        #expect(links.mismatch != nil)
    }
}
