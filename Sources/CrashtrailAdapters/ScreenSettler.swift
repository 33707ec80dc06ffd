public import CrashtrailCore
public import CrashtrailRecording

/// Records what the screen shows once each change has settled (SPEC section 18, "Recording without hand-wiring"):
/// the UIKit or SwiftUI glue reports screen trees and transitions, and the settler hands the recorder a state only
/// when no transition runs.
///
/// - ``screensChanged(_:)``: the tree the screen shows now. Outside a transition it is recorded at once; during one
///   it only replaces the tree to record when the transition ends, so the changes of one transition are coalesced.
/// - ``transitionBegan(interactive:)``: a push, pop, presentation or dismissal starts animating, or the user starts
///   an interactive one (a swipe back, a sheet pulled down). Transitions may nest; the change settles when the last
///   one ends. The first one's start observes the recorded state again (no step), so the steps of the change come
///   after the transition began rather than just after the change before.
/// - ``transitionEnded(cancelled:showing:)``: it finished. The tree then shown is recorded at this time. A cancelled
///   transition discards the trees reported while it ran (they showed where it was going), so it records nothing
///   unless `showing` says the screen differs from the last recorded tree; its end observes the recorded state again.
/// - ``conditionsChanged()``: a condition began or stopped holding (the user signed in) with no screen change.
///
/// A change whose state equals the last recorded one records no step; it is still observed (the screen showed it then),
/// so the steps of the next change come after it, as they come after a transition's start. Times come from `clock`,
/// milliseconds since the session started; the recorder needs each observation after the one before, so a time not
/// after the previous observation is moved to the millisecond after it (two changes within one clock tick, or a clock
/// that stepped back).
///
/// Nothing here throws, so a SwiftUI `onChange` needs no `try?` that would lose a change silently: an observation the
/// recorder refuses (a tree that breaks the manifest, a value that did not encode, modal changes too close together)
/// is kept in ``refused`` with its reason, newest last, and counted in ``refusedCount``; the next change is recorded
/// from the last state that was.
///
/// It runs on the main actor, as the recorder and the UI do.
///
/// ```swift
/// let settler = ScreenSettler(recorder: recorder, conditions: { session.isSignedIn ? ["signedIn"] : [] },
///                             clock: { sessionClock.milliseconds })
/// // UIKit: navigationController(_:willShow:animated:)
/// settler.transitionBegan(interactive: coordinator.isInteractive)
/// coordinator.animate(alongsideTransition: nil) { context in
///     // walkedTree(): the glue's walk of the view controllers into a ScreenTree
///     settler.transitionEnded(cancelled: context.isCancelled, showing: walkedTree())
/// }
/// // SwiftUI: .onChange(of: screens) { settler.screensChanged(ScreenTree(tab: tab, roots: roots, paths: paths)) }
/// ```
@MainActor
public final class ScreenSettler {
    /// An observation the recorder refused, with its time, its state and why.
    public struct Refusal: Hashable, Sendable {
        /// When it was observed, in milliseconds since the session started.
        public var t: Int64
        /// The state the tree showed.
        public var state: NavigationState
        /// Why it was refused.
        public var error: ObservedStateError
    }

    /// The session's recorder.
    public let recorder: TrailRecorder
    /// The most refusals ``refused`` keeps.
    public let refusalLimit: Int
    /// The latest refused observations, newest last, at most ``refusalLimit``.
    public private(set) var refused: [Refusal] = []
    /// Every refused observation, including those ``refused`` no longer keeps.
    public private(set) var refusedCount = 0
    /// The observations handed to the recorder and recorded.
    public private(set) var recordedCount = 0
    /// The state last recorded, or nil before the first observation.
    public private(set) var lastRecordedState: NavigationState?
    /// When the last recorded observation was made, in milliseconds since the session started.
    public private(set) var lastObservationTime: Int64?
    /// How many transitions run now; changes settle when none does.
    public private(set) var runningTransitions = 0
    /// Whether any running transition is interactive (the user's finger drives it, so it may be cancelled).
    public private(set) var isInteractive = false

    private let clock: @MainActor () -> Int64
    private let conditions: @MainActor () -> Set<String>
    /// The tree the screen showed when the last change settled, recorded or refused.
    private var settledTree: ScreenTree?
    /// The latest tree reported while a transition runs, to record when it ends.
    private var awaitedTree: ScreenTree?
    /// The conditions changed while a transition ran: the screen is observed again when it ends.
    private var conditionsChangedDuringTransition = false
    /// Whether the recorder holds the state of ``settledTree`` (it was recorded, or equals the state last recorded).
    private var isSettledStateRecorded = false

    /// A settler that records into `recorder`.
    /// - Parameters:
    ///   - recorder: the session's recorder (made with its manifest, for an app that keeps its own navigation).
    ///   - conditions: the conditions that hold now (`signedIn` once the user signed in), read at each observation.
    ///   - clock: milliseconds since the session started, read when a change settles; a test passes its own.
    ///   - refusalLimit: the most refusals ``refused`` keeps (default 20).
    public init(
        recorder: TrailRecorder, conditions: @escaping @MainActor () -> Set<String> = { [] }, clock: @escaping @MainActor () -> Int64,
        refusalLimit: Int = 20
    ) {
        self.recorder = recorder
        self.conditions = conditions
        self.clock = clock
        self.refusalLimit = max(0, refusalLimit)
    }

    /// Whether a transition runs now, so changes wait for it to end.
    public var isTransitionRunning: Bool { runningTransitions > 0 }

    /// The screen shows `tree` now: recorded at once when no transition runs, else when the last one ends.
    /// - Parameter tree: what the screen shows.
    public func screensChanged(_ tree: ScreenTree) {
        if isTransitionRunning {
            awaitedTree = tree
        } else {
            settle(tree)
        }
    }

    /// The conditions that hold changed while the screen stayed the same: the tree last shown is observed again with
    /// them (or, during a transition, the tree it ends on will be).
    public func conditionsChanged() {
        if isTransitionRunning {
            conditionsChangedDuringTransition = true
        } else if let tree = settledTree {
            settle(tree)
        }
    }

    /// A transition starts: changes reported until it ends are recorded when it ends.
    /// - Parameter interactive: whether the user drives it (a swipe back, a sheet pulled down), so it may be cancelled.
    public func transitionBegan(interactive: Bool) {
        if runningTransitions == 0 { observeStart() }
        runningTransitions += 1
        isInteractive = isInteractive || interactive
    }

    /// A transition ended: when no other runs, the tree the screen then shows is recorded at this time.
    ///
    /// An end without a matching ``transitionBegan(interactive:)`` settles the screen all the same.
    /// - Parameters:
    ///   - cancelled: the transition was cancelled (an interactive one, released before it went far enough); the
    ///     trees reported while it ran are discarded.
    ///   - tree: the tree the screen shows now, when the glue has it (UIKit walks it in the transition's completion);
    ///     without it, the latest tree reported during the transition, or none after a cancelled one.
    public func transitionEnded(cancelled: Bool, showing tree: ScreenTree? = nil) {
        if let tree {
            awaitedTree = tree
        } else if cancelled {
            awaitedTree = nil
        }
        runningTransitions = max(0, runningTransitions - 1)
        guard !isTransitionRunning else { return }
        isInteractive = false
        let conditionsChanged = conditionsChangedDuringTransition
        conditionsChangedDuringTransition = false
        if let awaited = awaitedTree ?? (conditionsChanged ? settledTree : nil) {
            awaitedTree = nil
            settle(awaited)
        } else if cancelled, isSettledStateRecorded, let state = lastRecordedState {
            // A cancelled transition leaves the screen as it was: it still shows the recorded state now.
            observeAgain(state)
        }
    }

    /// Records `tree`'s state at the clock's time, unless it is the state last recorded; a refusal is kept.
    private func settle(_ tree: ScreenTree) {
        settledTree = tree
        let state = tree.navigationState(conditions: conditions())
        // Before the comparison: without the values left out, the state may look unchanged.
        if !tree.unencodable.isEmpty {
            let values = tree.unencodable.map(\.message).joined(separator: "; ")
            isSettledStateRecorded = false
            let error = ObservedStateError(.invalidState, "the screen holds values that are not destinations: \(values)")
            refuse(state, at: nextObservationTime(), error)
            return
        }
        guard state != lastRecordedState else {
            isSettledStateRecorded = true
            observeAgain(state)
            return
        }
        let t = nextObservationTime()
        isSettledStateRecorded = false
        do {
            try recorder.record(observedState: state, at: t)
        } catch {
            refuse(state, at: t, error)
            return
        }
        isSettledStateRecorded = true
        lastRecordedState = state
        lastObservationTime = t
        recordedCount += 1
    }

    /// Observes the recorded state again as a transition starts (``observeAgain(_:)``).
    private func observeStart() {
        guard isSettledStateRecorded, let state = lastRecordedState else { return }
        observeAgain(state)
    }

    /// Tells the recorder the screen still shows `state`, the state last recorded, at the clock's time; no step.
    ///
    /// The steps of the next change then come after this time rather than just after the change before (SPEC section
    /// 18, "Steps keep their times"). Skipped when the clock is not past the last observation.
    private func observeAgain(_ state: NavigationState) {
        let t = clock()
        guard let last = lastObservationTime, t > last else { return }
        do {
            try recorder.record(observedState: state, at: t)
            lastObservationTime = t
        } catch {
            refuse(state, at: t, error)
        }
    }

    /// The clock's time, moved to the millisecond after the last observation when it is not after it (the recorder
    /// takes only increasing times), and never before the session started.
    private func nextObservationTime() -> Int64 {
        let t = max(0, clock())
        guard let last = lastObservationTime, t <= last else { return t }
        return last + 1
    }

    private func refuse(_ state: NavigationState, at t: Int64, _ error: ObservedStateError) {
        refusedCount += 1
        refused.append(Refusal(t: t, state: state, error: error))
        if refused.count > refusalLimit { refused.removeFirst(refused.count - refusalLimit) }
    }
}
