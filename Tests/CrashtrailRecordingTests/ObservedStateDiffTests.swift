import CrashtrailCore
import CrashtrailRecording
import CrashtrailTestSupport
import Testing

/// SPEC section 11: observed states become the fewest steps that reach them, and the trail's replay passes through
/// every observed state.
@Suite("Observed states")
struct ObservedStateDiffTests {

    @Test("Property: replaying the steps passes through every observed state, at or before its time (300 sequences)")
    func replayPassesThroughEveryState() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        var observed = 0
        for seed in 0..<300 {
            // Given states an app went through (the engine's states after random steps: known screens, no pending
            // destination, a tab bar; a gate's reset is not an observable change)
            var generator = RandomStepGenerator(manifest: manifest, seed: UInt64(seed) &* 0x51)
            var engine = NavigationEngine(manifest: manifest)
            var states: [NavigationState] = [engine.state]
            for step in generator.steps(count: 1 + seed % 30) {
                engine.apply(step)
                let screens = Array(engine.state.stacks.joined()) + Array(engine.state.modals.joined())
                let known = screens.allSatisfy { manifest.spec(named: $0.name) != nil }
                if known, engine.state.pending == nil, engine.state.tab != nil, engine.state != states.last { states.append(engine.state) }
            }
            // When each is observed 10 s after the one before
            var diff = try ObservedStateDiff(manifest: manifest, first: states[0])
            var replay = NavigationEngine(manifest: manifest, state: states[0])
            for (index, state) in states.enumerated().dropFirst() {
                let t = Int64(index) * 10_000
                let steps = try diff.steps(to: state, at: t, after: t - 10_000)
                // Then replaying the steps reaches it, all within the interval, with no anomaly
                for step in steps {
                    #expect(step.t > t - 10_000 && step.t <= t, "seed \(seed)")
                    #expect(replay.apply(step).isEmpty, "seed \(seed): \(step)")
                }
                #expect(replay.state == state, "seed \(seed), observation \(index)")
                observed += 1
            }
        }
        #expect(observed > 1_000)
    }

    @Test("The fewest steps: popToRoot instead of pops, select, present then push, conditions before and after")
    func fewestSteps() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        let d = { (name: String, id: String?) in Destination(name, id.map { ["id": JSONValue.string($0)] } ?? [:]) }
        var start = manifest.launchState
        start.stacks[0] += [d("item", "L-1"), d("item", "L-2"), d("item", "L-3")]
        var diff = try ObservedStateDiff(manifest: manifest, first: start)
        // Back to the root of tab 0
        var target = start
        target.stacks[0] = [d("home", nil)]
        #expect(try diff.steps(to: target, at: 1_000, after: 0).map(\.op) == [.popToRoot])
        // To tab 1 with an item, signed in, and a compose sheet over it
        var next = target
        next.tab = 1
        next.stacks[1] += [d("item", "L-9")]
        next.conditions = ["signedIn"]
        next.modals = [[d("compose", "P-1")]]
        let ops = try diff.steps(to: next, at: 20_000, after: 1_000).map(\.op)
        #expect(ops == [.satisfy("signedIn"), .select(tab: 1), .push(d("item", "L-9")), .present(d("compose", "P-1"))])
        // The tab root's push dismisses the sheet and pops its stack in one step (SPEC 4 rule 3), fewer than a
        // dismiss and a pop
        var back = next
        back.modals = []
        back.stacks[1] = [d("marketplace", nil)]
        back.conditions = []
        #expect(try diff.steps(to: back, at: 40_000, after: 20_000).map(\.op) == [.push(d("marketplace", nil)), .revoke("signedIn")])
        // One pop, not popToRoot, when one screen goes
        var pushed = back
        pushed.stacks[1] += [d("item", "L-1"), d("item", "L-2")]
        _ = try diff.steps(to: pushed, at: 50_000, after: 40_000)
        var popped = pushed
        popped.stacks[1].removeLast()
        #expect(try diff.steps(to: popped, at: 60_000, after: 50_000).map(\.op) == [.pop])
    }

    @Test("Changes too close for the modal transition, states the manifest cannot have, and unreachable ones are refused")
    func refusals() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        var diff = try ObservedStateDiff(manifest: manifest, first: manifest.launchState)
        var two = manifest.launchState
        two.modals = [[Destination("login")], [Destination("compose", ["id": "P"])]]
        two.conditions = ["signedIn"]
        let close = #expect(throws: ObservedStateError.self) { try diff.steps(to: two, at: 300, after: 0) }
        #expect(close?.code == .tooClose, "\(String(describing: close))")
        #expect(try diff.steps(to: two, at: 2_000, after: 300).count == 3)
        var unknown = manifest.launchState
        unknown.stacks[0].append(Destination("nowhere"))
        #expect((#expect(throws: ObservedStateError.self) { try diff.steps(to: unknown, at: 9_000, after: 2_000) })?.code == .invalidState)
        // A root that is no gate cannot be reached; a gate's can (SPEC 11: every state the Navigator reaches)
        let notAGate = NavigationState(tab: nil, stacks: [[Destination("item", ["id": "L-1"])]], conditions: ["signedIn"])
        let refused = #expect(throws: ObservedStateError.self) { try diff.steps(to: notAGate, at: 9_000, after: 2_000) }
        #expect(refused?.code == .unreachable)
        #expect(refused?.message.contains("item is not a gate") == true, "\(String(describing: refused))")
        let noTabs = NavigationState(tab: nil, stacks: [[Destination("welcome")]], conditions: ["signedIn"])
        #expect(try diff.steps(to: noTabs, at: 9_000, after: 2_000).map(\.op) == [.push(Destination("welcome"))])
        var twoTabs = manifest.launchState
        twoTabs.stacks.removeLast()
        #expect((#expect(throws: ObservedStateError.self) { try diff.steps(to: twoTabs, at: 9_000, after: 2_000) })?.code == .invalidState)
    }

    @Test("A flow showing with a pending destination, a gate's root and the tab bar coming back are each reached")
    func pendingAndGates() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        var diff = try ObservedStateDiff(manifest: manifest, first: manifest.launchState)
        // The profile asked for while signed out: the login flow shows, the profile waits (SPEC 4 rule 1)
        var waiting = manifest.launchState
        waiting.modals = [[Destination("login")]]
        waiting.pending = PendingDestination(Destination("myProfile"), mode: .push)
        #expect(try diff.steps(to: waiting, at: 10_000, after: 0).map(\.op) == [.push(Destination("myProfile"))])
        // The welcome gate: everything discarded, one stack rooted at the gate (rule 2)
        let welcome = NavigationState(tab: nil, stacks: [[Destination("welcome")]])
        #expect(try diff.steps(to: welcome, at: 20_000, after: 10_000).map(\.op) == [.push(Destination("welcome"))])
        // The tab bar back, on the second tab: its root, pushed with no tab bar showing, acts as a gate (rule 3)
        var tabs = manifest.launchState
        tabs.tab = 1
        #expect(try diff.steps(to: tabs, at: 30_000, after: 20_000).map(\.op) == [.push(Destination("marketplace"))])
    }

    @MainActor
    @Test("The recorder records observed states as the differ's steps; a refused observation records nothing")
    func recorderEntryPoint() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        let recorder = TrailRecorder(
            manifest: manifest, app: .init(bundleID: manifest.app, version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1))
        var diff = try ObservedStateDiff(manifest: manifest, first: manifest.launchState)
        var shown = manifest.launchState
        shown.tab = 2
        shown.conditions = ["signedIn"]
        shown.stacks[2].append(Destination("item", ["id": "L-7"]))
        try recorder.record(observedState: shown, at: 5_000)
        #expect(recorder.trail().steps == (try diff.steps(to: shown, at: 5_000, after: 0)))
        #expect(recorder.trail(stampingFinal: true).final == shown)
        var broken = shown
        broken.stacks[0].append(Destination("nowhere"))
        #expect(throws: ObservedStateError.self) { try recorder.record(observedState: broken, at: 9_000) }
        #expect(recorder.recordedStepCount == 3)
        #expect(recorder.currentState == shown)
    }

    @MainActor
    @Test("The recorder times observed changes as trail from-states does: after the previous observation, not after the previous step")
    func recorderTimesLikeFromStates() throws {
        // Given observations at 1,000, 3,000, 4,000 and 9,000 ms: a tab and a push, a sheet, its dismissal, another tab
        let manifest = try Manifest(yaml: SpecManifests.piratebay, source: "piratebay.yml")
        let launch = manifest.launchState
        var item = launch
        item.tab = 1
        item.stacks[1].append(Destination("item", ["id": "L-42"]))
        var sheet = item
        sheet.modals = [[Destination("login")]]
        var home = item
        home.tab = 0
        let observations: [(Int64, NavigationState)] = [(1_000, item), (3_000, sheet), (4_000, item), (9_000, home)]
        let recorder = TrailRecorder(
            manifest: manifest, app: .init(bundleID: manifest.app, version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1))

        // When the app reports them, and the same observations go through `trail from-states`
        for (t, state) in observations { try recorder.record(observedState: state, at: t) }
        let lines = ([(Int64(0), launch)] + observations).map { t, state in
            #"{"t":\#(t),"state":\#(CanonicalJSON.string(of: state.jsonValue))}"#
        }.joined(separator: "\n")
        let fromStates = try ObservationLog.trail(
            fromLines: Array(lines.utf8), manifest: manifest, app: .init(bundleID: manifest.app, version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1), source: "states")

        // Then the steps and their times are the same, each change's steps after the observation before it
        let steps = recorder.trail().steps
        #expect(steps == fromStates.steps)
        #expect(steps.first.map { $0.t > 0 && $0.t <= 1_000 } == true, "\(steps.map(\.t))")
        #expect(steps.contains { $0.t > 3_000 && $0.t <= 4_000 }, "\(steps.map(\.t))")
        #expect(steps.last.map { $0.t > 4_000 && $0.t <= 9_000 } == true, "\(steps.map(\.t))")
    }
}
