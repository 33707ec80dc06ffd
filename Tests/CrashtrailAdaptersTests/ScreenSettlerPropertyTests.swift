import CrashtrailAdapters
import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Testing

/// SPEC section 18 against SPEC section 4: seeded sequences of what PirateBay's screens do (pushes, back buttons,
/// back swipes completed and cancelled, tab taps, sheets presented and pulled down, sign-in flows, sign-outs, the
/// welcome gate, alerts, changes coalesced in one transition) are fed to a settler with increasing times; the trail
/// it records, replayed with `SpecEngine` (written from the SPEC alone), must show each settled state at its
/// observation time, the state before it when a transition began, and no change for a cancelled one.
@MainActor
@Suite("The settler against the SPEC 4 reference")
struct ScreenSettlerPropertyTests {
    @Test("Spaced changes: every settled tree is recorded, at its time, with no refusal", arguments: 0..<4)
    func spaced(batch: Int) throws {
        let manifest = try AdapterFixtures.manifest()
        var observations = 0
        for seed in 0..<100 {
            let run = try SettlerRun(manifest: manifest, seed: UInt64(batch * 100 + seed), tight: false)
            run.play(events: 10 + seed % 40)
            // Then nothing was refused and the replay passes through every settled state
            #expect(run.settler.refusedCount == 0, "seed \(batch * 100 + seed): \(run.settler.refused.map(\.error))")
            observations += run.check()
        }
        #expect(observations > 1_500, "batch \(batch): \(observations) settled observations")
    }

    @Test("Changes too close for the modal transitions: refusals are counted, the rest still replays", arguments: 0..<2)
    func tight(batch: Int) throws {
        let manifest = try AdapterFixtures.manifest()
        var refusals = 0
        for seed in 0..<100 {
            let seed = UInt64(10_000 + batch * 100 + seed)
            let run = try SettlerRun(manifest: manifest, seed: seed, tight: true)
            run.play(events: 10 + Int(seed % 40))
            // Then every refusal is a modal change too soon after another, and the accepted ones replay
            let codes = Set(run.settler.refused.map(\.error.code))
            #expect(codes.isSubset(of: [.tooClose]), "seed \(seed): \(run.settler.refused.map(\.error))")
            refusals += run.settler.refusedCount
            _ = run.check()
        }
        #expect(refusals > 20, "batch \(batch): \(refusals) refusals")
    }
}

/// One seeded sequence: a model of PirateBay's UI, the settler it drives, and what the replay must show when.
@MainActor
final class SettlerRun {
    /// What the trail must show at a time: the state settled there (unless the settler refused it), or the last
    /// accepted state (while a transition runs, after a cancelled one).
    enum Checkpoint {
        case settled(t: Int64, state: NavigationState)
        case unchanged(t: Int64)
    }

    let manifest: Manifest
    let settler: ScreenSettler
    let clock: TestClock
    var generator: SplitMix64
    let tight: Bool
    var model = UIModel()
    var checkpoints: [Checkpoint] = []
    var log: [String] = []
    /// When the last change of modal roots settled.
    var lastModalChange: Int64 = -10_000

    init(manifest: Manifest, seed: UInt64, tight: Bool) throws {
        self.manifest = manifest
        self.generator = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 18)
        self.tight = tight
        let recorder = try AdapterFixtures.recorder()
        let box = ConditionsBox()
        let clock = TestClock()
        self.settler = ScreenSettler(recorder: recorder, conditions: { box.conditions }, clock: { clock.now }, refusalLimit: 10_000)
        self.conditionsBox = box
        self.clock = clock
    }

    private let conditionsBox: ConditionsBox

    // MARK: Playing

    /// Plays `events` seeded events, starting with the launch screens.
    func play(events: Int) {
        clock.now = Int64.random(in: 0...50, using: &generator)
        show()
        for _ in 0..<events { playEvent() }
    }

    /// The screens show the model now, outside any transition: settled at once.
    private func show() {
        conditionsBox.conditions = model.conditions
        settler.screensChanged(model.tree)
        settled()
    }

    private func settled() {
        checkpoints.append(.settled(t: settlingTime(), state: model.state))
    }

    /// The time the settler gives the observation it makes now.
    private func settlingTime() -> Int64 {
        max(0, clock.now)
    }

    private func advance(_ range: ClosedRange<Int64>) {
        clock.advance(Int64.random(in: range, using: &generator))
    }

    /// A UIKit transition from the model now to `next`: began, the controllers show `next` at once, ended after a
    /// while; cancelled ones end on the model unchanged.
    private func transition(to next: UIModel, interactive: Bool, cancelled: Bool = false) {
        let changesModals = next.state.modalRoots != model.state.modalRoots
        settler.transitionBegan(interactive: interactive)
        checkpoints.append(.unchanged(t: clock.now))
        advance(1...30)
        settler.screensChanged(next.tree)
        // A completed transition's steps may come at any time after it began; a cancelled one has none.
        if cancelled { checkpoints.append(.unchanged(t: clock.now)) }
        advance(20...400)
        if changesModals, !cancelled { spaceModalChange() }
        let glueWalks = Bool.random(using: &generator)
        if cancelled {
            settler.transitionEnded(cancelled: true, showing: glueWalks ? model.tree : nil)
            if glueWalks {
                settled()
            } else {
                checkpoints.append(.unchanged(t: clock.now))
            }
            return
        }
        model = next
        conditionsBox.conditions = model.conditions
        settler.transitionEnded(cancelled: false, showing: glueWalks ? model.tree : nil)
        settled()
        if changesModals { lastModalChange = clock.now }
    }

    /// Spaced runs keep modal changes far enough apart for the manifest's transitions.
    private func spaceModalChange() {
        guard !tight else { return }
        clock.now = max(clock.now, lastModalChange + manifest.modalTransition + 30)
    }

    /// A change shown without a transition (a tab tap, SwiftUI's `onChange`, a root swapped).
    private func direct(to next: UIModel) {
        let changesModals = next.state.modalRoots != model.state.modalRoots
        if changesModals { spaceModalChange() }
        model = next
        show()
        if changesModals { lastModalChange = clock.now }
    }

    private func playEvent() {
        advance(tight ? 1...400 : 20...1_500)
        let roll = Int.random(in: 0..<100, using: &generator)
        log.append("\(clock.now): \(roll)")
        switch roll {
        case 0..<22: push()
        case 22..<30: if model.canPop { transition(to: model.popped(), interactive: false) } else { push() }
        case 30..<38: if model.canPop { transition(to: model.popped(), interactive: true) } else { push() }
        case 38..<46: if model.canPop { transition(to: model.popped(), interactive: true, cancelled: true) } else { push() }
        case 46..<56: tabTap()
        case 56..<64: presentSheet()
        case 64..<72: pullSheetDown(cancelled: roll >= 69)
        case 72..<78: completeFlow()
        case 78..<82: signOut()
        case 82..<85: gateOrTabs()
        case 85..<90: alert()
        default: coalesced()
        }
    }

    private func push() {
        var next = model
        next.push(model.pushable.randomElement(using: &generator) ?? AdapterFixtures.settings)
        if Bool.random(using: &generator) {
            transition(to: next, interactive: false)
        } else {
            direct(to: next)
        }
    }

    private func tabTap() {
        guard let tab = model.tab, model.sheets.isEmpty else { return push() }
        var next = model
        let tapped = Int.random(in: 0..<3, using: &generator)
        if tapped == tab {
            // UIKit pops the selected tab's stack to its root, animated.
            next.stacks[tab] = Array(next.stacks[tab].prefix(1))
            transition(to: next, interactive: false)
        } else {
            next.tab = tapped
            direct(to: next)
        }
    }

    private func presentSheet() {
        var next = model
        next.sheets.append([model.presentable.randomElement(using: &generator) ?? AdapterFixtures.item("L-1")])
        transition(to: next, interactive: false)
    }

    private func pullSheetDown(cancelled: Bool) {
        guard !model.sheets.isEmpty else { return presentSheet() }
        var next = model
        next.sheets.removeLast()
        transition(to: next, interactive: true, cancelled: cancelled)
        // presentationControllerDidDismiss reports the tree again after a completed pull.
        if !cancelled {
            advance(1...5)
            show()
        }
    }

    /// The login or age check on top completes: its sheet goes and its condition holds.
    private func completeFlow() {
        guard let root = model.sheets.last?.first, let condition = UIModel.flows[root.name] else { return presentSheet() }
        var next = model
        next.sheets.removeLast()
        next.conditions.insert(condition)
        transition(to: next, interactive: false)
    }

    private func signOut() {
        guard model.conditions.contains("signedIn") else { return push() }
        model.conditions.remove("signedIn")
        conditionsBox.conditions = model.conditions
        if Bool.random(using: &generator) {
            settler.conditionsChanged()
            settled()
        } else {
            // During a transition that ends where it began: observed when it ends.
            settler.transitionBegan(interactive: false)
            checkpoints.append(.unchanged(t: clock.now))
            settler.conditionsChanged()
            advance(20...300)
            settler.transitionEnded(cancelled: false)
            settled()
        }
    }

    /// The welcome gate replaces the tab bar, or the tab bar comes back with every stack at its root.
    private func gateOrTabs() {
        var next = model
        next.sheets = []
        if model.tab == nil {
            next.tab = Int.random(in: 0..<3, using: &generator)
            next.stacks = UIModel.roots.map { [$0] }
        } else {
            next.tab = nil
            next.stacks = [[AdapterFixtures.welcome]]
        }
        direct(to: next)
    }

    /// An alert comes and goes: no destination, so no step.
    private func alert() {
        settler.screensChanged(ScreenTree(tab: model.tab, stacks: model.tree.stacks, modals: model.tree.modals + [[nil]]))
        settled()
        advance(100...900)
        show()
    }

    /// Pushes and a sheet reported within one transition, with a nested one.
    private func coalesced() {
        let changesModalsFrom = model.state.modalRoots
        settler.transitionBegan(interactive: false)
        checkpoints.append(.unchanged(t: clock.now))
        var next = model
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            next.push(next.pushable.randomElement(using: &generator) ?? AdapterFixtures.settings)
            advance(1...40)
            settler.screensChanged(next.tree)
        }
        settler.transitionBegan(interactive: false)
        if Bool.random(using: &generator) {
            next.sheets.append([next.presentable.randomElement(using: &generator) ?? AdapterFixtures.item("L-2")])
            settler.screensChanged(next.tree)
        }
        advance(20...200)
        settler.transitionEnded(cancelled: false)
        advance(20...300)
        let changesModals = next.state.modalRoots != changesModalsFrom
        if changesModals { spaceModalChange() }
        model = next
        settler.transitionEnded(cancelled: false)
        settled()
        if changesModals { lastModalChange = clock.now }
    }

    // MARK: Checking

    /// Replays the recorded trail with `SpecEngine` and checks every checkpoint; returns the settled observations.
    func check() -> Int {
        let trail = settler.recorder.trail()
        let refusedTimes = Set(settler.refused.map(\.t))
        var engine = SpecEngine(manifest: manifest, state: trail.base)
        var accepted = engine.state
        var next = 0
        var settledCount = 0
        var behindTheScreen = false
        #expect(trail.dropped == 0)
        #expect(zip(trail.steps, trail.steps.dropFirst()).allSatisfy { $0.t <= $1.t }, "step times decrease")
        for checkpoint in checkpoints {
            let t: Int64
            switch checkpoint {
            case .settled(let time, let state):
                t = time
                if refusedTimes.contains(time) {
                    behindTheScreen = true
                } else {
                    accepted = state
                    settledCount += 1
                    behindTheScreen = false
                }
            case .unchanged(let time):
                t = time
            }
            // After a refusal the recorder is behind the screen: the next accepted change's steps may come any time
            // after the last accepted observation, so only accepted observations bind the trail then.
            // The steps up to this time apply either way.
            while next < trail.steps.count, trail.steps[next].t <= t, behindTheScreen {
                #expect(engine.apply(trail.steps[next]).isEmpty, "step \(next) \(trail.steps[next].op)")
                next += 1
            }
            if behindTheScreen { continue }
            // The steps up to this time: so the state of a change is not reached before the checkpoint before it
            while next < trail.steps.count, trail.steps[next].t <= t {
                let step = trail.steps[next]
                let anomalies = engine.apply(step)
                #expect(anomalies.isEmpty, "step \(next) \(step.op): \(anomalies)")
                next += 1
            }
            guard engine.state == accepted else {
                Issue.record(
                    "at \(t) ms the trail shows \(engine.state), the screen showed \(accepted)\nlog: \(log)\ncheckpoints: \(checkpoints.map { if case .settled(let t, let s) = $0 { "S\(t) \(s.stacks) \(s.modals)" } else { "U\($0)" } })\nrefused: \(settler.refused.map(\.t))\nsteps: \(trail.steps.map { "\($0.t) \($0.op)" })"
                )
                return settledCount
            }
        }
        #expect(next == trail.steps.count, "steps after the last observation: \(trail.steps.dropFirst(next).map(\.op))")
        #expect(engine.state == accepted)
        return settledCount
    }
}

/// The conditions the app holds, read by the settler when a change settles.
@MainActor
final class ConditionsBox {
    var conditions: Set<String> = []
}

/// PirateBay's UI as a test models it: a tab bar (or the welcome gate's stack), sheets and conditions.
struct UIModel {
    typealias F = AdapterFixtures

    static let roots = [F.home, F.marketplace, F.myProfile]
    /// The flows' destinations and the condition each gives.
    static let flows = ["login": "signedIn", "ageCheck": "ageVerified"]

    var tab: Int? = 0
    var stacks: [[Destination]] = roots.map { [$0] }
    var sheets: [[Destination]] = []
    var conditions: Set<String> = []

    var tree: ScreenTree {
        ScreenTree(tab: tab, stacks: stacks.map { $0.map { Optional($0) } }, modals: sheets.map { $0.map { Optional($0) } })
    }

    var state: NavigationState { tree.navigationState(conditions: conditions) }

    var canPop: Bool { topStack.count > 1 }

    private var topStack: [Destination] {
        sheets.last ?? stacks[tab ?? 0]
    }

    mutating func push(_ destination: Destination) {
        if sheets.isEmpty {
            stacks[tab ?? 0].append(destination)
        } else {
            sheets[sheets.count - 1].append(destination)
        }
    }

    func popped() -> UIModel {
        var next = self
        if next.sheets.isEmpty {
            next.stacks[tab ?? 0].removeLast()
        } else {
            next.sheets[next.sheets.count - 1].removeLast()
        }
        return next
    }

    /// Screens the app pushes: those whose conditions hold (`search` is left out: its text is redacted).
    var pushable: [Destination] {
        var screens = [
            F.item("L-1"), F.item("L-2"), Destination("order", ["id": .object(["rawValue": .string("A1")])]),
            Destination("profile", ["id": .string("p-7")]), Destination("seller", ["id": .string("p-7")]), Destination("featuredSeller"),
            Destination("page", ["_0": .int(2)]), F.settings,
        ]
        if conditions.contains("signedIn") { screens.append(Destination("downloadUserData")) }
        if conditions.isSuperset(of: ["signedIn", "ageVerified"]) { screens.append(Destination("rumShop")) }
        return screens
    }

    /// Screens the app presents as sheets: a flow for a missing condition, or what its conditions allow.
    var presentable: [Destination] {
        var screens = [F.item("L-3")]
        screens.append(conditions.contains("signedIn") ? F.compose("p-7") : F.login)
        if conditions.contains("signedIn") { screens.append(Destination("optOut")) }
        if !conditions.contains("ageVerified") { screens.append(Destination("ageCheck")) }
        return screens
    }
}
