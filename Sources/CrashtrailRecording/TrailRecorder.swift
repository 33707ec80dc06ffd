public import CrashtrailCore
public import CrashtrailEncoding
public import Foundation

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
    /// The steps kept, their `base` and `dropped`, by the rule above.
    private var kept: BoundedTrail
    private var observation: NavigationObservation?
    /// When the app last reported the state it shows (``record(observedState:at:)``); the launch state counts as
    /// observed at 0.
    private var lastObservation: Int64?

    /// Starts recording `navigator` from its current state.
    ///
    /// Every step the Navigator carries out is recorded before the Navigator's call returns.
    /// - Parameters:
    ///   - navigator: the app's Navigator.
    ///   - app: the app the trail names (bundle ID, version, build).
    ///   - session: the session the trail names; its `id`, `started` and `pid` join the trail to a crash report.
    ///   - limits: the bounds in steps and bytes; what goes past them is folded into `base` and counted in `dropped`.
    ///   - redactionKey: the install's secret for the manifest's `redact` stand-ins (``RedactionKey``); without
    ///     one, a random key for this recorder (stand-ins then differ between sessions).
    public init(
        navigator: Navigator, app: Trail.AppInfo, session: Trail.Session, limits: Limits = Limits(), redactionKey: [UInt8]? = nil
    ) {
        self.app = app
        self.session = session
        self.limits = limits
        let redactor = Self.redactor(for: navigator.manifest, key: redactionKey)
        self.redactor = redactor
        var engine = navigator.engine
        if let redactor, redactor.redact(engine.state) != engine.state {
            engine = NavigationEngine(manifest: navigator.manifest, state: redactor.redact(engine.state))
        }
        self.kept = BoundedTrail(
            engine: engine,
            startedAtBase: navigator.state == navigator.manifest.launchState && navigator.engine.transition == nil,
            limits: limits)
        self.observation = navigator.addObserver { [weak self] event in
            self?.redactAndAppend(event.step)
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
    ///   - redactionKey: the install's secret for the manifest's `redact` stand-ins (``RedactionKey``); without
    ///     one, a random key for this recorder (stand-ins then differ between sessions).
    public init(
        manifest: Manifest, state: NavigationState? = nil, app: Trail.AppInfo, session: Trail.Session, limits: Limits = Limits(),
        redactionKey: [UInt8]? = nil
    ) {
        self.app = app
        self.session = session
        self.limits = limits
        let redactor = Self.redactor(for: manifest, key: redactionKey)
        self.redactor = redactor
        let engine = NavigationEngine(manifest: manifest, state: state.map { redactor?.redact($0) ?? $0 })
        self.kept = BoundedTrail(engine: engine, startedAtBase: engine.state == manifest.launchState, limits: limits)
        self.observation = nil
    }

    /// Records one step the app carried out, applying it by the manifest's rules.
    ///
    /// Use it when the recorder was made with ``init(manifest:state:app:session:limits:redactionKey:)``; a recorder that observes a
    /// `Navigator` records its steps by itself.
    /// - Parameter step: the step; its `t` must not be lower than the previous step's.
    /// - Throws: `TrailError` (`non-monotonic-time`) when `t` is negative or lower than the previous step's; nothing is
    ///   recorded then.
    public func record(_ step: Step) throws(TrailError) {
        let previous = kept.lastTime ?? 0
        guard step.t >= previous else {
            throw TrailError(
                .nonMonotonicTime, at: "steps[\(recordedStepCount)].t",
                "t is \(step.t), lower than \(previous), the time of the step before; times count milliseconds since the session started and never decrease"
            )
        }
        redactAndAppend(step)
    }

    /// Records the fewest steps that take the app from the state it last showed to `state`, the state it shows now
    /// (SPEC section 11), for apps that keep their own navigation and report what they show.
    ///
    /// ```swift
    /// try recorder.record(observedState: NavigationState(tab: 1, stacks: stacks), at: millisecondsSinceStart)
    /// ```
    /// - Parameters:
    ///   - state: the state the app settled in (a cancelled interactive transition is not an observation).
    ///   - t: milliseconds since the session started, after the previous observation.
    /// - Throws: `ObservedStateError` when the state breaks the manifest, cannot be reached with the observable steps,
    ///   or comes too soon after a modal transition; nothing is recorded then.
    ///
    /// The steps of a change are timed as `trail from-states` times them (SPEC sections 11 and 18): a millisecond
    /// apart from just after the previous observation (the launch state is observed at 0), never later than `t`, so
    /// a replay passes through each observed state at the time the app showed it.
    public func record(observedState state: NavigationState, at t: Int64) throws(ObservedStateError) {
        let state = redactor?.redact(state) ?? state
        let previous = lastObservation ?? min(0, t - 1)
        var diff = ObservedStateDiff(engine: kept.liveEngine, lastTime: kept.lastTime)
        // The steps come from the redacted state, so they hold stand-ins already.
        for step in try diff.steps(to: state, at: t, after: previous) { append(step) }
        lastObservation = t
    }

    /// Ends the session: writes to the journal that the app ended it (it went to the background for good, or
    /// terminates), then stops recording.
    ///
    /// At the next launch, ``RecoveredJournal/ending(crashReported:)`` tells this `exited` from a session the OS killed
    /// (SPEC section 20). Call it where the app's session ends, as Sentry's SDK ends its own session
    /// (`applicationWillTerminate`, or `sceneDidEnterBackground` once the app may be ended there).
    /// - Throws: ``JournalError`` (`write-failed`) when the end cannot be written; the session then reads as killed.
    public func endSession() throws(JournalError) {
        stop()
        guard let journal else { return }
        try journal.appendEnd()
        self.journal = nil
        journalTarget = nil
    }

    /// Stops recording; the trail so far stays available.
    public func stop() {
        observation?.cancel()
        observation = nil
    }

    /// The number of steps kept.
    public var keptStepCount: Int { kept.keptStepCount }

    /// The number of steps recorded, kept or let go.
    public var recordedStepCount: Int { Int(kept.dropped) + kept.keptStepCount }

    /// The state after the last recorded step, as the app shows it.
    public var currentState: NavigationState { kept.liveEngine.state }

    /// The trail so far, in memory.
    ///
    /// At a crash, the journal has it (``startJournal(at:synchronizingToDisk:)``):
    /// nothing needs to run then.
    /// - Parameter stampingFinal: include the current state as `final`.
    /// - Returns: the kept steps with their `base`, `dropped` and, when stamped, `final`.
    public func trail(stampingFinal: Bool = false) -> Trail {
        kept.trail(app: app, session: session, stampingFinal: stampingFinal)
    }

    // MARK: The journal

    /// Starts keeping the trail in a journal file at `url` (SPEC section 10), replacing any file there: the trail
    /// so far is written at once, then every step before the call that records it returns.
    ///
    /// Recover the previous session's journal (``TrailJournal/recover(at:)``) before starting this one. The
    /// journal stays within about twice the limits: when it holds as many let-go steps as the limits again, it is
    /// rewritten with the kept steps only, into a new file renamed over the old one.
    /// - Parameters:
    ///   - url: the journal file, in a folder the app keeps (Application Support, not Caches); the folder is made when
    ///     it does not exist yet, as on a fresh install.
    ///   - synchronizingToDisk: `fsync` after every step, so steps survive power loss too. Off by default: a step
    ///     is in the file, safe from any end of the process, as soon as it is written.
    /// - Throws: ``JournalError`` (`write-failed`) when the file cannot be created (the device is locked and the
    ///   folder is protected, the disk is full); the recorder goes on in memory and tries again at each step and at
    ///   ``resumeJournal()``.
    public func startJournal(at url: URL, synchronizingToDisk: Bool = false) throws(JournalError) {
        journal = nil
        journalTarget = (url.path, synchronizingToDisk)
        // On a fresh install the app's folder for it (Application Support) does not exist yet.
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            journal = try newJournal(path: url.path, synchronizes: synchronizingToDisk)
        } catch {
            journalFailure = error
            throw error
        }
        journalFailure = nil
    }

    /// Writes the journal again, whole, if a write failed since it started.
    ///
    /// Call it when protected data becomes available again (`UIApplication.protectedDataDidBecomeAvailableNotification`);
    /// each step tries too.
    ///
    /// A write refused while the device is locked (file protection), or on a full disk, does not end the journal: the
    /// steps are kept in memory meanwhile, and the next write that succeeds writes every kept step (SPEC section 18).
    /// - Returns: whether the journal is being written now.
    @discardableResult
    public func resumeJournal() -> Bool {
        if journal == nil, let target = journalTarget {
            do {
                journal = try newJournal(path: target.path, synchronizes: target.synchronizes)
                journalFailure = nil
            } catch {
                journalFailure = error
            }
        }
        return journal != nil
    }

    /// Why the journal is not being written, if it is not: the last write that failed (the device locked, a full
    /// disk).
    ///
    /// The recorder goes on in memory, and writes the whole journal again at the next step (or ``resumeJournal()``)
    /// once writing works again.
    public private(set) var journalFailure: JournalError?

    /// Where the journal goes, once started: kept to write it again after a failed write.
    private var journalTarget: (path: String, synchronizes: Bool)?

    /// The manifest written into every journal header, so recovery needs no manifest file.
    private lazy var manifestText = kept.liveEngine.manifest.documentText

    private func newJournal(path: String, synchronizes: Bool) throws(JournalError) -> JournalWriter {
        let header = JournalLayout.Header(
            app: app, session: session, limits: limits, base: kept.base, dropped: kept.dropped, manifestText: manifestText)
        return try JournalWriter(
            path: path, header: header, steps: kept.keptSteps, firstSequence: UInt64(kept.dropped), synchronizes: synchronizes)
    }

    // MARK: Sinks

    /// Hands the trail, encoded as `sink` asks, to `sink` after every step from now on (and the trail so far at once).
    public func addSink(_ sink: TrailSink) {
        if sinks == nil { sinks = SinkPump(mirroring: kept, app: app, session: session) }
        sinks?.add(sink)
    }

    /// Waits until the sinks have been handed the trail of every step recorded so far (for tests and tools; an
    /// app never needs to wait).
    ///
    /// Blocks the calling thread meanwhile.
    public func waitForSinks() {
        sinks?.waitUntilDelivered()
    }

    /// Why the sinks were last not handed a trail, if they were not: it could not be encoded.
    public var sinkFailure: TrailCodecError? { sinks?.failure }

    private var sinks: SinkPump?

    // MARK: Recording

    /// Redacts `step`, then records it.
    private func redactAndAppend(_ step: Step) {
        append(redactor?.redact(step) ?? step)
    }

    /// Records a step whose values are redacted already.
    private func append(_ step: Step) {
        if journal == nil, journalFailure != nil { resumeJournal() }
        let sequence = UInt64(kept.dropped) + UInt64(kept.keptStepCount)
        var size: Int?
        if let journal {
            do {
                size = try journal.append(step, sequence: sequence)
            } catch {
                journalFailure = error
                self.journal = nil
            }
        }
        if size == nil {
            scratch.removeAll(keepingCapacity: true)
            step.writeCanonicalJSON(into: &scratch)
            size = scratch.count
        }
        kept.append(step, size: size)
        sinks?.submit(step, size: size ?? 0)
        // Rewrite the journal with the kept steps only once it holds as many let-go steps as the limits again.
        if let journal,
            journal.recordCount >= kept.keptStepCount + max(64, limits.maximumSteps)
                || journal.recordBytes >= kept.byteCount + max(16 << 10, limits.maximumBytes)
        {
            do {
                self.journal = try newJournal(path: journal.path, synchronizes: journal.synchronizes)
            } catch {
                journalFailure = error
                self.journal = nil
            }
        }
    }

    /// Replaces the manifest's `redact` values; nil when it redacts nothing.
    private let redactor: Redactor?

    /// Always one: even a manifest that redacts nothing has its unknown destinations' values replaced (SPEC 18).
    private static func redactor(for manifest: Manifest, key: [UInt8]?) -> Redactor? {
        Redactor(manifest: manifest, key: key ?? RedactionKey.random())
    }

    /// Reused for each step's JSON when there is no journal to write it into.
    private var scratch: [UInt8] = []

    private var journal: JournalWriter?
}
