import CrashtrailCore
import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore

/// The trail of a session that did not crash (`session.ended` is `killed` or `exited`, SPEC section 20), ready to be
/// counted: the screens, transitions and sequences it went through, its release, and how many sessions it stands for.
///
/// The collector keeps no report for it: `crashtrail paths --rate` reads the counts it adds.
package struct SessionTrail: Sendable {
    /// `BUNDLE@VERSION+BUILD` of the trail's app.
    package var release: String
    /// What the session went through.
    package var visits: PathVisits
    /// How many sessions it stands for: 1 / its sample rate (1 without one).
    package var weight: Double
    /// The project it was sent to, or `ingest --project`.
    package var project: ProjectID

    /// Counts given as they are (for tools and tests).
    package init(release: String, visits: PathVisits, weight: Double, project: ProjectID) {
        self.release = release
        self.visits = visits
        self.weight = weight
        self.project = project
    }

    /// The smallest sample rate counted, in billionths (0.000001): one trail stands for at most a million sessions.
    package static let minimumSampleRate: Int64 = 1000

    /// Whether `trail` is the trail of a session that did not crash, which is counted rather than joined.
    package static func isCounted(_ trail: Trail) -> Bool {
        switch trail.session.ended {
        case .killed?, .exited?: true
        case .crashed?, nil: false
        }
    }

    /// The counts of `trail`, whose screens `manifest` names.
    /// - Throws: `RejectionError` (`undecodable-trail`) when no manifest of its app is known, so its screens cannot be
    ///   named.
    package init(_ trail: Trail, manifest: Manifest?, project: ProjectID) throws(RejectionError) {
        guard let manifest else {
            throw RejectionError(
                .undecodableTrail,
                "the trail of a session that \(trail.session.ended?.rawValue ?? "ended") is counted by the screens it shows, which "
                    + "needs the manifest of \(trail.app.bundleID): add it (crashtrail manifest add, or serve --manifest) and send the trail again"
            )
        }
        if let rate = trail.session.sampleRate, rate.billionths < Self.minimumSampleRate {
            throw RejectionError(
                .undecodableTrail,
                "the trail's session.sampleRate is \(rate), below the 0.000001 the collector counts: one trail "
                    + "cannot stand for more than a million sessions")
        }
        release =
            GroupingRuleBook.release(bundleID: trail.app.bundleID, version: trail.app.version, build: trail.app.build)
            ?? trail.app.bundleID
        visits = PathVisits(screens: ScreenPath.names(of: trail, manifest: manifest))
        weight = trail.session.sampleRate?.weight ?? 1
        self.project = project
    }
}
