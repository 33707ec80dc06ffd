public import CrashtrailCore
public import CrashtrailRecording

/// The other way to record: PirateBay's SwiftUI build keeps its own navigation (a `NavigationStack` path per tab,
/// a selected tab and a sheet) and reports what it shows; crashtrail records the fewest steps that reach it
/// (SPEC section 11).
///
/// ```swift
/// let observer = PirateBayScreenObserver(recorder: recorder, clock: { sessionClock.milliseconds })
/// TabView(selection: $tab) { … }
///     .onChange(of: screens) { observer.show(screens) }
/// ```
///
/// `show(_:)` throws nothing, so `onChange` needs no `try?` that would lose a step silently: a refused observation is
/// kept in ``refused`` with its reason, for the app's logs.
@MainActor
public final class PirateBayScreenObserver {
    /// What the SwiftUI views show: the selected tab, each tab's path above its root, and the sheets over them.
    public struct Screens: Hashable, Sendable {
        public var tab: Int
        /// Each tab's `NavigationStack` path, above the tab's root (home, marketplace, myProfile).
        public var paths: [[PirateBayDestination]]
        /// Sheets, bottom to top, each with its own path (root first).
        public var sheets: [[PirateBayDestination]]
        /// Conditions that hold (`signedIn` once the user signed in).
        public var conditions: Set<String>

        public init(
            tab: Int = 0, paths: [[PirateBayDestination]] = [[], [], []], sheets: [[PirateBayDestination]] = [],
            conditions: Set<String> = []
        ) {
            self.tab = tab
            self.paths = paths
            self.sheets = sheets
            self.conditions = conditions
        }

        /// The navigation state these screens are.
        public func state() throws -> NavigationState {
            let roots: [PirateBayDestination] = [.home, .marketplace, .myProfile]
            let stacks = try zip(roots, paths).map { root, path in try ([root] + path).map(Destination.init(encoding:)) }
            let modals = try sheets.map { try $0.map(Destination.init(encoding:)) }
            return NavigationState(tab: tab, stacks: stacks, modals: modals, conditions: conditions)
        }
    }

    public let recorder: TrailRecorder
    /// Milliseconds since the session started, read when a change is shown.
    private let clock: () -> Int64
    /// The observations the recorder refused, with why, newest last (at most 20).
    public private(set) var refused: [ObservedStateError] = []

    /// - Parameters:
    ///   - recorder: the session's recorder.
    ///   - clock: milliseconds since the session started; a test passes a fixed one.
    public init(recorder: TrailRecorder, clock: @escaping () -> Int64 = { 0 }) {
        self.recorder = recorder
        self.clock = clock
    }

    /// Records what the app shows now, at the clock's time.
    ///
    /// Refused observations are kept in ``refused``.
    public func show(_ screens: Screens) {
        do {
            try show(screens, at: clock())
        } catch let error as ObservedStateError {
            refused.append(error)
            if refused.count > 20 { refused.removeFirst() }
        } catch {
            refused.append(ObservedStateError(.invalidState, "the screens are not a navigation state: \(error)"))
            if refused.count > 20 { refused.removeFirst() }
        }
    }

    /// Records what the app shows now, `t` milliseconds into the session.
    /// - Throws: `ObservedStateError` when the screens break the manifest or came too soon after a sheet moved.
    public func show(_ screens: Screens, at t: Int64) throws {
        try recorder.record(observedState: try screens.state(), at: t)
    }
}
