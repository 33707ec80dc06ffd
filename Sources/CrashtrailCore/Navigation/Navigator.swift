/// The app-facing Navigator: push, pop, present, dismiss, tabs, gates and intermediate flows, with the rules of
/// SPEC section 4 and any number of observers (a `TrailRecorder` from `CrashtrailRecording`, analytics, a test) side by side.
///
/// It drives the same `NavigationEngine` the replayer uses, so a recorded trail replays to the same state.
/// Anomalies are returned and reported to observers, never thrown.
///
/// ```swift
/// let navigator = Navigator(manifest: manifest)
/// let recorder = TrailRecorder(navigator: navigator, app: app, session: session)
/// try recorder.startJournal(at: journalURL)        // every step survives a crash or a kill
/// try navigator.push(PirateBayDestination.item(id: LootID("L-42")))
/// navigator.pop()
/// ```
@MainActor
public final class Navigator {
    /// The engine holding the state and the transition timer.
    package private(set) var engine: NavigationEngine
    private let clock: () -> Int64
    private var observers: [(id: UInt64, handler: (NavigationEvent) -> Void)] = []
    private var nextObserverID: UInt64 = 0
    private var lastTime: Int64 = 0

    /// A Navigator at `state` (the manifest's launch state by default).
    /// - Parameters:
    ///   - manifest: the app's route table.
    ///   - state: where to start; the launch state when nil.
    ///   - clock: milliseconds since the session started, from a monotonic clock. Tests pass a fixed clock.
    public init(manifest: Manifest, state: NavigationState? = nil, clock: (() -> Int64)? = nil) {
        self.engine = NavigationEngine(manifest: manifest, state: state)
        self.clock = clock ?? Self.monotonicClock()
    }

    /// A clock that counts milliseconds from the moment it is made.
    public static func monotonicClock() -> () -> Int64 {
        TimeSource.system.sessionClock()
    }

    /// The current state.
    public var state: NavigationState { engine.state }

    /// The route table.
    public var manifest: Manifest { engine.manifest }

    // MARK: Observers

    /// Calls `handler` after every step, until the returned observation is cancelled.
    ///
    /// Observers never displace
    /// each other.
    @discardableResult
    public func addObserver(_ handler: @escaping (NavigationEvent) -> Void) -> NavigationObservation {
        nextObserverID += 1
        let id = nextObserverID
        observers.append((id, handler))
        return NavigationObservation { [weak self] in
            self?.observers.removeAll { $0.id == id }
        }
    }

    /// The number of observers attached.
    package var observerCount: Int { observers.count }

    // MARK: Navigation

    /// Carries out `op` now, tells the observers, and returns the anomalies.
    @discardableResult
    public func perform(_ op: Step.Operation) -> [NavigationAnomaly] {
        // The clock is monotonic, but never let a trail's times go back even if a custom clock does.
        let t = max(clock(), lastTime)
        lastTime = t
        let step = Step(t: t, op)
        let index = engine.stepCount
        let anomalies = engine.apply(step)
        let event = NavigationEvent(index: index, step: step, state: engine.state, anomalies: anomalies)
        for observer in observers { observer.handler(event) }
        return anomalies
    }

    @discardableResult public func push(_ destination: Destination) -> [NavigationAnomaly] { perform(.push(destination)) }
    @discardableResult public func present(_ destination: Destination) -> [NavigationAnomaly] { perform(.present(destination)) }
    @discardableResult public func open(_ destination: Destination) -> [NavigationAnomaly] {
        perform(.open(.destination(destination)))
    }
    @discardableResult public func open(url: String) -> [NavigationAnomaly] { perform(.open(.url(url))) }
    @discardableResult public func pop() -> [NavigationAnomaly] { perform(.pop) }
    @discardableResult public func popToRoot() -> [NavigationAnomaly] { perform(.popToRoot) }
    @discardableResult public func dismiss() -> [NavigationAnomaly] { perform(.dismiss) }
    @discardableResult public func select(tab: Int) -> [NavigationAnomaly] { perform(.select(tab: Int64(tab))) }
    @discardableResult public func complete(success: Bool) -> [NavigationAnomaly] { perform(.complete(success: success)) }
    @discardableResult public func satisfy(_ condition: String) -> [NavigationAnomaly] { perform(.satisfy(condition)) }
    @discardableResult public func revoke(_ condition: String) -> [NavigationAnomaly] { perform(.revoke(condition)) }
}

/// Keeps an observer attached until ``cancel()``.
@MainActor
public final class NavigationObservation {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    /// Detaches the observer.
    ///
    /// Safe to call more than once.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
