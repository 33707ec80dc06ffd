public import CrashtrailCore

/// The outcome of replaying a trail on the headless Navigator (SPEC section 9): the path, the crash-time
/// screens, whether they match what the app recorded, the shortest reproducing links and the anomalies.
///
/// Build one with ``Replayer``; turn it into text with a renderer (``ReplayRenderer``).
public struct Replay: Hashable, Sendable {
    /// The stored report ID, or the file the trail came from.
    public var report: String
    /// The app that recorded the trail.
    public var app: Trail.AppInfo
    /// The trail's session.
    public var session: Trail.Session
    /// How many steps the recorder let go from the front.
    public var dropped: Int64
    /// Where the manifest came from (its `source`), for people.
    public var manifestSource: String
    /// Every kept step, replayed.
    public var steps: [ReplayedStep]
    /// The replayed state after the last step.
    public var final: NavigationState
    /// The state the app recorded at the crash, when it did.
    public var recordedFinal: NavigationState?
    /// The first place the replayed and recorded states differ; nil when they are equal or nothing was
    /// recorded.
    public var difference: StateDifference?
    /// The deep links that rebuild ``final`` from launch.
    public var links: ShortestLinks
    /// Every anomaly, in step order.
    public var anomalies: [NavigationAnomaly]

    /// Whether the replayed final state equals the recorded one canonically; nil when nothing was recorded.
    public var verified: Bool? {
        guard let recordedFinal else { return nil }
        return recordedFinal == final
    }

    /// A replay from its parts; ``Replayer`` builds them.
    /// - Parameters:
    ///   - report: the stored report ID or the trail's file.
    ///   - app: the trail's app.
    ///   - session: the trail's session.
    ///   - dropped: steps dropped from the front.
    ///   - manifestSource: where the manifest came from.
    ///   - steps: the replayed steps.
    ///   - final: the replayed final state.
    ///   - recordedFinal: the trail's `final`.
    ///   - difference: the first difference between the two.
    ///   - links: the shortest links.
    ///   - anomalies: every anomaly.
    public init(
        report: String, app: Trail.AppInfo, session: Trail.Session, dropped: Int64, manifestSource: String,
        steps: [ReplayedStep], final: NavigationState, recordedFinal: NavigationState?, difference: StateDifference?,
        links: ShortestLinks, anomalies: [NavigationAnomaly]
    ) {
        self.report = report
        self.app = app
        self.session = session
        self.dropped = dropped
        self.manifestSource = manifestSource
        self.steps = steps
        self.final = final
        self.recordedFinal = recordedFinal
        self.difference = difference
        self.links = links
        self.anomalies = anomalies
    }
}
