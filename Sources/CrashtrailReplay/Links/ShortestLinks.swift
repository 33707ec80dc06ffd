public import CrashtrailCore

/// The deep links that take a fresh headless Navigator from launch, with the preconditions satisfied, to a
/// final state's screens (SPEC section 9), and whether applying them really does.
///
/// Order: without a tab bar, the stack's root (unless the app has no tabs and it is `root`), then every
/// destination above it. With a tab bar, every other tab whose stack holds more than its root, in index
/// order, then the selected tab (its root unless it is tab 0 and no earlier link opened another tab). Then
/// each modal bottom to top; the modal a pending destination waits on is rebuilt by linking the pending
/// destination. Links stop before the first screen that cannot be linked.
public struct ShortestLinks: Hashable, Sendable {
    /// One link and the screen it opens.
    public struct Link: Hashable, Sendable {
        /// The deep link.
        public var url: String
        /// The screen it opens (for the pending destination, the screen that then waits for its flow).
        public var destination: Destination
        /// Whether the screen holds a recorder's stand-in for a redacted value (SPEC section 12): the link rebuilds
        /// the screen with a stand-in record.
        public var redacted: Bool = false
    }

    /// Conditions to satisfy before the links run, in canonical order.
    public var preconditions: [String]
    /// The links, in order.
    public var links: [Link]
    /// Whether applying the links reproduces the final state's tab, stacks, modals and pending destination.
    public var reproduces: Bool
    /// The screens that cannot be linked: a pending destination first when it cannot, then the first other one.
    public var unreproducible: [UnreproducibleScreen]
    /// When every screen could be linked but applying the links did not reproduce the state, where the
    /// result differs.
    public var mismatch: StateDifference?

    /// For each link, whether opening it after the ones before starts a modal transition (it changes the modal
    /// roots), so the next link must wait ``modalTransition`` milliseconds or be dropped, as replay's
    /// `transition-collision` says.
    public var startsModalTransition: [Bool]
    /// How long a modal transition lasts in the app, in milliseconds (the manifest's `transitions.modal`).
    public var modalTransition: Int64

    /// The links' URLs, in order.
    public var urls: [String] { links.map(\.url) }

    /// How far apart the verification applies the links: 10 s, or the modal transition plus 1 ms if longer.
    public static func spacing(for manifest: Manifest) -> Int64 {
        max(10_000, manifest.modalTransition + 1)
    }

    /// Computes and verifies the shortest links to `final`.
    /// - Parameters:
    ///   - manifest: the app's route table.
    ///   - final: the state to rebuild.
    public init(manifest: Manifest, final: NavigationState) {
        let planner = LinkPlanner(manifest: manifest, final: final)
        let plan = planner.plan()
        self.preconditions = plan.preconditions.sorted(by: CanonicalJSON.codePointPrecedes)
        self.links = plan.links
        self.unreproducible = plan.unreproducible
        self.modalTransition = manifest.modalTransition
        self.startsModalTransition = Self.transitionStarts(
            urls: plan.links.map(\.url), preconditions: plan.preconditions, manifest: manifest)
        if plan.unreproducible.isEmpty {
            let reached = Self.apply(urls: plan.links.map(\.url), preconditions: plan.preconditions, manifest: manifest)
            self.mismatch = Self.difference(reached: reached, final: final)
            self.reproduces = mismatch == nil
        } else {
            self.mismatch = nil
            self.reproduces = false
        }
    }

    /// The state a fresh headless Navigator reaches from launch, with `preconditions` satisfied, when `urls`
    /// are applied as `open` steps ``spacing(for:)`` apart.
    /// - Parameters:
    ///   - urls: the links.
    ///   - preconditions: conditions satisfied before the first link.
    ///   - manifest: the app's route table.
    /// - Returns: the state after the last link.
    public static func apply(urls: [String], preconditions: Set<String>, manifest: Manifest) -> NavigationState {
        var launch = manifest.launchState
        launch.conditions = preconditions
        var engine = NavigationEngine(manifest: manifest, state: launch)
        let spacing = spacing(for: manifest)
        for (index, url) in urls.enumerated() {
            engine.apply(Step(t: Int64(index) * spacing, .open(.url(url))))
        }
        return engine.state
    }

    /// Whether each link, opened ``spacing(for:)`` after the one before from launch with `preconditions`, starts a
    /// modal transition.
    static func transitionStarts(urls: [String], preconditions: Set<String>, manifest: Manifest) -> [Bool] {
        var launch = manifest.launchState
        launch.conditions = preconditions
        var engine = NavigationEngine(manifest: manifest, state: launch)
        let spacing = spacing(for: manifest)
        return urls.enumerated().map { index, url in
            engine.apply(Step(t: Int64(index) * spacing, .open(.url(url))))
            return manifest.modalTransition > 0 && engine.transition?.step == index
        }
    }

    /// Where `reached` fails to reproduce `final` in what the links promise (tab, stacks, modals, the
    /// pending destination but not its mode), or nil when it reproduces it.
    /// - Parameters:
    ///   - reached: the state the links reached.
    ///   - final: the state they were meant to rebuild.
    /// - Returns: the first difference, or nil.
    public static func difference(reached: NavigationState, final: NavigationState) -> StateDifference? {
        var comparable = reached
        comparable.conditions = final.conditions
        if let pending = comparable.pending, let wanted = final.pending, pending.destination == wanted.destination {
            comparable.pending?.mode = wanted.mode
        }
        return StateDifference.first(replayed: comparable, recorded: final)
    }
}
