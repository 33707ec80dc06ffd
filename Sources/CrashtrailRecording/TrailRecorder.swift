import CrashtrailCore

/// Records the steps a ``Navigator`` carries out into a bounded ``Trail``.
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
    private var latestState: NavigationState
    private var observation: NavigationObservation?

    /// Starts recording `navigator` from its current state.
    public init(navigator: Navigator, app: Trail.AppInfo, session: Trail.Session, limits: Limits = Limits()) {
        self.app = app
        self.session = session
        self.limits = limits
        self.baseEngine = navigator.engine
        self.latestState = navigator.state
        self.startedAtBase = navigator.state == navigator.manifest.launchState && navigator.engine.transition == nil
        self.observation = navigator.addObserver { [weak self] event in
            self?.record(event)
        }
    }

    /// Stops recording; the trail so far stays available.
    public func stop() {
        observation?.cancel()
        observation = nil
    }

    /// The number of steps kept.
    public var keptStepCount: Int { steps.count - head }

    /// The trail so far.
    /// - Parameter stampingFinal: include the current state as `final` (at crash time).
    /// - Returns: the kept steps with their `base`, `dropped` and, when stamped, `final`.
    public func trail(stampingFinal: Bool = false) -> Trail {
        let base = (dropped == 0 && startedAtBase) ? nil : baseEngine.state
        return Trail(
            app: app, session: session, base: base, dropped: dropped, steps: Array(steps[head...]),
            final: stampingFinal ? latestState : nil)
    }

    private func record(_ event: NavigationEvent) {
        latestState = event.state
        let size = CanonicalJSON.bytes(of: event.step.jsonValue).count + 1
        steps.append(event.step)
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
