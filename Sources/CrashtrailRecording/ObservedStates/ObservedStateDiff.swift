import CrashtrailCore

/// Why an observed state could not be turned into steps (SPEC section 11).
public struct ObservedStateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it was.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The state breaks the manifest: an unknown destination, a wrong tab count, an invalid shape.
        public static let invalidState = Code(name: "invalid-state")
        /// The state differs from the one before in a way push, pop, popToRoot, select, present, dismiss, satisfy
        /// and revoke cannot reach (another tab bar, another root, a pending destination).
        public static let unreachable = Code(name: "unreachable")
        /// The change needs modal transitions that do not fit before the observation's time.
        public static let tooClose = Code(name: "too-close")
        /// The observation's time is not after the one before.
        public static let nonMonotonicTime = Code(name: "non-monotonic-time")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Turns the navigation states an app reports into the fewest steps that reach each (SPEC section 11), for apps that
/// keep their own navigation (a SwiftUI path, UIKit controllers).
///
/// A change is expressed with `push`, `pop`, `popToRoot`, `select`, `present`, `dismiss`, `satisfy` and `revoke`:
/// conditions first (so a push needs no flow), then the modals that no longer match are dismissed from the top, each
/// changed tab stack is edited (selected, popped to the longest common prefix, `popToRoot` when that is the root
/// alone, then pushed), the selected tab is set, and the new modals are presented and pushed; conditions that went are
/// revoked last. Steps that add or remove a modal are spaced by the manifest's modal transition, so none is dropped.
/// Every change is checked by applying its steps with the navigation rules: the result must be the observed state.
public struct ObservedStateDiff {
    public let manifest: Manifest
    /// The engine at the last observed state.
    public private(set) var engine: NavigationEngine
    private var lastTime: Int64?

    /// Starts at `state`, the first observation (the trail's base).
    /// - Throws: `ObservedStateError` (`invalid-state`) when it breaks the manifest.
    public init(manifest: Manifest, first state: NavigationState) throws(ObservedStateError) {
        try Self.check(state, manifest: manifest)
        self.manifest = manifest
        self.engine = NavigationEngine(manifest: manifest, state: state)
    }

    /// Starts at `engine`'s state, with the modal transition it has running, if any.
    init(engine: NavigationEngine, lastTime: Int64?) {
        self.manifest = engine.manifest
        self.engine = engine
        self.lastTime = lastTime
    }

    /// The steps from the last observed state to `state`, observed at `t` milliseconds.
    /// - Parameters:
    ///   - state: the state the app now shows.
    ///   - t: when, in milliseconds since the session started; after the previous observation.
    ///   - previous: the previous observation's time (the steps come after it).
    /// - Returns: the fewest steps that reach `state`.
    /// - Throws: `ObservedStateError` saying why the change cannot be recorded.
    public mutating func steps(to state: NavigationState, at t: Int64, after previous: Int64) throws(ObservedStateError) -> [Step] {
        try Self.check(state, manifest: manifest)
        guard t > previous else {
            throw ObservedStateError(.nonMonotonicTime, "the observation at \(t) ms is not after the one before (\(previous) ms)")
        }
        let from = engine.state
        guard state.pending == nil else {
            throw ObservedStateError(
                .unreachable, "a pending destination (one waiting for a flow) cannot be observed; report the flow's screens only")
        }
        guard (from.tab == nil) == (state.tab == nil), from.stacks.count == state.stacks.count else {
            throw ObservedStateError(
                .unreachable, "the tab bar appeared or went, which only a gate does; it cannot be reached by observed changes")
        }
        for (index, (old, new)) in zip(from.stacks, state.stacks).enumerated() where old.first != new.first {
            throw ObservedStateError(
                .unreachable,
                "stack \(index) has another root (\(new.first?.name ?? "none") instead of \(old.first?.name ?? "none")), which only a gate or a tab change makes"
            )
        }
        let ops = plan(from: from, to: state)
        // Times: after the previous observation, a millisecond apart; a step that adds or removes a modal waits for the
        // transition the last such step started.
        var steps: [Step] = []
        var time = max(previous, lastTime ?? previous)
        var trial = engine
        for op in ops {
            time += 1
            // A step that adds or removes a modal waits until the running transition ends (the engine knows it).
            let changesModals: Bool
            switch op {
            case .present, .dismiss: changesModals = true
            default: changesModals = false
            }
            if changesModals, trial.isTransitionRunning(at: time), let start = trial.transition?.start {
                time = start + manifest.modalTransition
            }
            let step = Step(t: time, op)
            trial.apply(step)
            steps.append(step)
        }
        guard time <= t else {
            throw ObservedStateError(
                .tooClose,
                "the change needs modal transitions of \(manifest.modalTransition) ms each, so its last step would come at \(time) ms, after the observation at \(t) ms; observations of modal changes must be further apart"
            )
        }
        guard trial.state == state else {
            throw ObservedStateError(
                .unreachable,
                "the state cannot be reached from the one before with push, pop, popToRoot, select, present, dismiss, satisfy and revoke")
        }
        engine = trial
        lastTime = time
        return steps
    }

    /// The ops from `from` to `to`, in order.
    private func plan(from: NavigationState, to: NavigationState) -> [Step.Operation] {
        var ops: [Step.Operation] = []
        // Conditions that came: first, so that a push does not bring up a flow.
        ops += to.conditions.subtracting(from.conditions).sorted(by: CanonicalJSON.codePointPrecedes).map { Step.Operation.satisfy($0) }
        let stacksChange = from.stacks != to.stacks
        // Modals: the leading ones that are the same stay; the first that differs only above its root is edited in
        // place; the rest are dismissed. Base stacks can be edited only with no modal over them.
        var kept = zip(from.modals, to.modals).prefix { $0 == $1 }.count
        var editInPlace = kept < from.modals.count && kept < to.modals.count && from.modals[kept].first == to.modals[kept].first
        if stacksChange {
            kept = 0
            editInPlace = false
        }
        let dismissals = from.modals.count - kept - (editInPlace ? 1 : 0)
        ops += Array(repeating: .dismiss, count: max(0, dismissals))
        var tab = from.tab
        if stacksChange {
            for index in from.stacks.indices where from.stacks[index] != to.stacks[index] {
                if tab != nil, tab != index {
                    ops.append(.select(tab: Int64(index)))
                    tab = index
                }
                ops += edit(from.stacks[index], to: to.stacks[index])
            }
        }
        if let wanted = to.tab, tab != wanted { ops.append(.select(tab: Int64(wanted))) }
        if editInPlace { ops += edit(from.modals[kept], to: to.modals[kept]) }
        for modal in to.modals.dropFirst(kept + (editInPlace ? 1 : 0)) {
            guard let root = modal.first else { continue }
            ops.append(.present(root))
            ops += modal.dropFirst().map { Step.Operation.push($0) }
        }
        // Conditions that went: last.
        ops += from.conditions.subtracting(to.conditions).sorted(by: CanonicalJSON.codePointPrecedes).map { Step.Operation.revoke($0) }
        return ops
    }

    /// The fewest ops that turn the top stack `from` into `to` (same root): pop to the longest common prefix
    /// (`popToRoot` when that is the root alone and more than one pop is needed), then push the rest.
    private func edit(_ from: [Destination], to: [Destination]) -> [Step.Operation] {
        let common = zip(from, to).prefix { $0 == $1 }.count
        let pops = from.count - common
        var ops: [Step.Operation] = common == 1 && pops > 1 ? [.popToRoot] : Array(repeating: .pop, count: pops)
        ops += to.dropFirst(common).map { Step.Operation.push($0) }
        return ops
    }

    /// A state's shape, and that it fits the manifest: the tab count, every destination known.
    static func check(_ state: NavigationState, manifest: Manifest) throws(ObservedStateError) {
        do {
            try state.validate(path: "state")
        } catch {
            throw ObservedStateError(.invalidState, error.description)
        }
        if state.tab != nil, state.stacks.count != manifest.tabs.count {
            throw ObservedStateError(
                .invalidState,
                "the state has \(state.stacks.count) tab stacks, but the manifest of \(manifest.app) has \(manifest.tabs.count) tabs")
        }
        let screens = Array(state.stacks.joined()) + Array(state.modals.joined()) + (state.pending.map { [$0.destination] } ?? [])
        if let unknown = screens.first(where: { manifest.spec(named: $0.name) == nil }) {
            throw ObservedStateError(.invalidState, "\(unknown.name) is not a destination of the manifest of \(manifest.app)")
        }
    }
}
