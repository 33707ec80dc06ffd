import CrashtrailCore

/// The trail a recorder keeps, as a value: the steps within the limits, the state before them (`base`) and the
/// count of steps let go (`dropped`), by the truncation rule of ``TrailRecorder``.
///
/// The recorder and journal recovery both keep their trail in one, so a recovered journal gives exactly the
/// trail the recorder had.
struct BoundedTrail {
    let limits: TrailRecorder.Limits
    /// The engine at the state before the first kept step, with the transition the let-go steps left running.
    private(set) var baseEngine: NavigationEngine
    private let startedAtBase: Bool
    private var steps: [Step] = []
    private var stepSizes: [Int] = []
    /// Index in `steps` of the first kept step (the array is compacted now and then).
    private var head = 0
    /// Bytes of canonical step JSON kept, one newline each included.
    private(set) var byteCount = 0
    private(set) var dropped: Int64
    /// The engine at the state after the last recorded step.
    private(set) var liveEngine: NavigationEngine
    private(set) var lastTime: Int64?

    /// Starts with `engine`'s state as the state before the first step, having let go `dropped` steps already.
    /// - Parameters:
    ///   - engine: the engine at the state before the first step.
    ///   - dropped: the steps let go before it.
    ///   - startedAtBase: whether that state is where the session started (then `base` is left out of the trail
    ///     while nothing was let go).
    ///   - limits: the most steps and bytes kept.
    init(engine: NavigationEngine, dropped: Int64 = 0, startedAtBase: Bool, limits: TrailRecorder.Limits) {
        self.limits = limits
        self.baseEngine = engine
        self.liveEngine = engine
        self.dropped = dropped
        self.startedAtBase = startedAtBase
    }

    /// The number of steps kept.
    var keptStepCount: Int { steps.count - head }

    /// The kept steps, oldest first.
    var keptSteps: ArraySlice<Step> { steps[head...] }

    /// The state before the first kept step, as the trail writes it (`nil` when it is where the session started).
    var base: NavigationState? { (dropped == 0 && startedAtBase) ? nil : baseEngine.state }

    /// Applies `step`, keeps it and lets the oldest steps go while the limits are passed.
    /// - Parameters:
    ///   - step: the step, already valid.
    ///   - knownSize: the bytes of the step's canonical JSON, when the caller has it already.
    mutating func append(_ step: Step, size knownSize: Int? = nil) {
        liveEngine.apply(step)
        lastTime = step.t
        let size = (knownSize ?? CanonicalJSON.bytes(of: step.jsonValue).count) + 1
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

    /// The trail so far, with `app` and `session`.
    func trail(app: Trail.AppInfo, session: Trail.Session, stampingFinal: Bool) -> Trail {
        Trail(
            app: app, session: session, base: base, dropped: dropped, steps: Array(keptSteps),
            final: stampingFinal ? liveEngine.state : nil)
    }
}
