import CrashtrailCore

/// Why an observed state could not be turned into steps (SPEC section 11).
public struct ObservedStateError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

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

}

/// Turns the navigation states an app reports into the fewest steps that reach each (SPEC section 11), for apps that
/// keep their own navigation (a SwiftUI path, UIKit controllers).
///
/// A change is expressed with `push`, `pop`, `popToRoot`, `select`, `present`, `dismiss`, `satisfy` and `revoke`
/// (and `open` for a destination pending from an `open`): conditions first (so a push needs no flow), then the modals
/// that no longer match are dismissed from the top, each changed tab stack is edited (selected, popped to the longest
/// common prefix, `popToRoot` when that is the root alone, then pushed), the selected tab is set, and the new modals
/// are presented and pushed; conditions that went are revoked last. Another root, or the tab bar appearing, going or
/// resetting its stacks, starts with the push of a gate (or a tab root); a flow showing with a pending destination is
/// reached by requesting that destination while its condition is missing. Steps that would collide with a modal
/// transition wait for it, so none is dropped. Every candidate is checked by applying its steps with the navigation
/// rules: the result must be the observed state.
public struct ObservedStateDiff {
    public let manifest: Manifest
    /// The engine at the last observed state.
    package private(set) var engine: NavigationEngine
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
    ///
    /// Every state the Navigator can reach from the one before is recorded with the fewest steps (SPEC section 11):
    /// the candidate plans are tried shortest first, each checked by applying its steps with the navigation rules, and
    /// only a state none of them reaches is refused.
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
        let start = max(previous, lastTime ?? previous)
        var tooLate: Int64?
        for ops in candidatePlans(to: state).sorted(by: { $0.count < $1.count }) {
            let (steps, trial, end) = timed(ops, after: start)
            guard trial.state == state else { continue }
            // A plan whose modal transitions do not fit before the observation may have a longer sibling that fits.
            guard end <= t else {
                tooLate = min(tooLate ?? end, end)
                continue
            }
            engine = trial
            lastTime = end
            return steps
        }
        if let tooLate {
            throw ObservedStateError(
                .tooClose,
                "the change needs modal transitions of \(manifest.modalTransition) ms each, so its last step would come at \(tooLate) ms, after the observation at \(t) ms; observations of modal changes must be further apart"
            )
        }
        throw ObservedStateError(.unreachable, unreachableReason(to: state))
    }

    /// `ops` as steps after `start`, a millisecond apart; a step that would collide with the modal transition running
    /// waits until it ends, so none is dropped.
    /// - Returns: the steps, the engine after them and the last step's time.
    func timed(_ ops: [Step.Operation], after start: Int64) -> (steps: [Step], engine: NavigationEngine, end: Int64) {
        var steps: [Step] = []
        var time = start
        var trial = engine
        for op in ops {
            time += 1
            if trial.isTransitionRunning(at: time), let running = trial.transition?.start {
                var probe = trial
                if probe.apply(Step(t: time, op)).contains(where: { $0.kind == .transitionCollision }) {
                    time = running + manifest.modalTransition
                }
            }
            let step = Step(t: time, op)
            trial.apply(step)
            steps.append(step)
        }
        return (steps, trial, time)
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
