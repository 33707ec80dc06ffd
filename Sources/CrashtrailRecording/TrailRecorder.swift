import CrashtrailCore

/// Records the steps a `Navigator` carries out into a bounded `Trail`.
///
/// It keeps at most ``Limits/maximumSteps`` steps and at most ``Limits/maximumBytes`` bytes of step JSON,
/// letting the oldest go. What it lets go is folded into `base` (the state before the first kept step) and
/// counted in `dropped`, so a truncated trail replays to exactly the same final state as the whole one.
///
/// One more rule keeps that promise: a modal transition started by a step that was let go still runs when the
/// next step comes, but replay starts with no transition running. So while the first kept step falls inside
/// such a transition, it is let go too (it is the step that would have collided, or one that would not
/// collide in a replay from `base`).
@MainActor
public final class TrailRecorder {
    /// How much of the trail to keep.
    public struct Limits: Sendable, Hashable {
        /// The most steps kept.
        ///
        /// Default 500: about 5 KB encoded, enough for a long session.
        public var maximumSteps: Int
        /// The most bytes of canonical step JSON kept.
        ///
        /// Default 64 KiB.
        public var maximumBytes: Int

        public init(maximumSteps: Int = 500, maximumBytes: Int = 64 * 1024) {
            self.maximumSteps = max(0, maximumSteps)
            self.maximumBytes = max(0, maximumBytes)
        }
    }

    public let app: Trail.AppInfo
    public let session: Trail.Session
    public let limits: Limits
    /// The engine at the state before the first kept step, with the transition the let-go steps left running.
    private var baseEngine: NavigationEngine
    private let startedAtBase: Bool
    private var steps: [Step] = []
    private var stepSizes: [Int] = []
    /// Index in `steps` of the first kept step (the array is compacted now and then).
    private var head = 0
    private var byteCount = 0
    private var dropped: Int64 = 0
    /// The engine at the state after the last recorded step.
    private var liveEngine: NavigationEngine
    private var lastTime: Int64?
    private var observation: NavigationObservation?

    /// Starts recording `navigator` from its current state.
    ///
    /// Every step the Navigator carries out is recorded before the Navigator's call returns.
    public init(navigator: Navigator, app: Trail.AppInfo, session: Trail.Session, limits: Limits = Limits()) {
        self.app = app
        self.session = session
        self.limits = limits
        self.baseEngine = navigator.engine
        self.liveEngine = navigator.engine
        self.startedAtBase = navigator.state == navigator.manifest.launchState && navigator.engine.transition == nil
        self.observation = navigator.addObserver { [weak self] event in
            self?.append(event.step)
        }
    }

    /// Starts recording steps that the app hands over itself (``record(_:)``), from `state` or the launch state.
    ///
    /// For apps that navigate without a `Navigator`, and for tools that record a trail step by step.
    /// - Parameters:
    ///   - manifest: the app's manifest; its rules give the state after each step.
    ///   - state: the state before the first step; nil for the manifest's launch state.
    ///   - app: the app the trail names (bundle ID, version, build).
    ///   - session: the session the trail names; its `id`, `started` and `pid` join the trail to a crash report.
    ///   - limits: the bounds in steps and bytes; what goes past them is folded into `base` and counted in `dropped`.
    public init(
        manifest: Manifest, state: NavigationState? = nil, app: Trail.AppInfo, session: Trail.Session, limits: Limits = Limits()
    ) {
        self.app = app
        self.session = session
        self.limits = limits
        let engine = NavigationEngine(manifest: manifest, state: state)
        self.baseEngine = engine
        self.liveEngine = engine
        self.startedAtBase = engine.state == manifest.launchState
        self.observation = nil
    }

    /// Records one step the app carried out, applying it by the manifest's rules.
    ///
    /// Use it when the recorder was made with ``init(manifest:state:app:session:limits:)``; a recorder that observes a
    /// `Navigator` records its steps by itself.
    /// - Parameter step: the step; its `t` must not be lower than the previous step's.
    /// - Throws: `TrailError` (`non-monotonic-time`) when `t` is negative or lower than the previous step's; nothing is
    ///   recorded then.
    public func record(_ step: Step) throws(TrailError) {
        let previous = lastTime ?? 0
        guard step.t >= previous else {
            throw TrailError(
                .nonMonotonicTime, at: "steps[\(recordedStepCount)].t",
                "t is \(step.t), lower than \(previous), the time of the step before; times count milliseconds since the session started and never decrease")
        }
        append(step)
    }

    /// Records the fewest steps that take the app from the state it last showed to `state`, the state it shows now
    /// (SPEC section 11), for apps that keep their own navigation and report what they show.
    ///
    /// ```swift
    /// try recorder.record(observedState: NavigationState(tab: 1, stacks: stacks), at: clock.milliseconds)
    /// ```
    /// - Parameters:
    ///   - state: the state the app settled in (a cancelled interactive transition is not an observation).
    ///   - t: milliseconds since the session started, after the last recorded step.
    /// - Throws: `ObservedStateError` when the state breaks the manifest, cannot be reached with the observable steps,
    ///   or comes too soon after a modal transition; nothing is recorded then.
    public func record(observedState state: NavigationState, at t: Int64) throws(ObservedStateError) {
        let previous = lastTime ?? -1
        var diff = ObservedStateDiff(engine: liveEngine, lastTime: lastTime)
        for step in try diff.steps(to: state, at: t, after: previous) { append(step) }
    }

    /// Stops recording; the trail so far stays available.
    public func stop() {
        observation?.cancel()
        observation = nil
    }

    /// The number of steps kept.
    public var keptStepCount: Int { steps.count - head }

    /// The number of steps recorded, kept or let go.
    public var recordedStepCount: Int { Int(dropped) + keptStepCount }

    /// The state after the last recorded step, as the app shows it.
    public var currentState: NavigationState { liveEngine.state }

    /// The trail so far.
    /// - Parameter stampingFinal: include the current state as `final` (at crash time).
    /// - Returns: the kept steps with their `base`, `dropped` and, when stamped, `final`.
    public func trail(stampingFinal: Bool = false) -> Trail {
        let base = (dropped == 0 && startedAtBase) ? nil : baseEngine.state
        return Trail(
            app: app, session: session, base: base, dropped: dropped, steps: Array(steps[head...]),
            final: stampingFinal ? liveEngine.state : nil)
    }

    private func append(_ step: Step) {
        liveEngine.apply(step)
        lastTime = step.t
        let size = CanonicalJSON.bytes(of: step.jsonValue).count + 1
        steps.append(step)
        stepSizes.append(size)
        byteCount += size
        while head < steps.count {
            let overLimit = steps.count - head > limits.maximumSteps || byteCount > limits.maximumBytes
            guard overLimit || baseEngine.isTransitionRunning(at: steps[head].t) else { break }
            baseEngine.apply(steps[head])
            byteCount -= stepSizes[head]
            dropped += 1
            head += 1
        }
        // Compact now and then, so memory stays bounded by the limits.
        if head > 1024, head * 2 > steps.count {
            steps.removeFirst(head)
            stepSizes.removeFirst(head)
            head = 0
        }
    }
}
