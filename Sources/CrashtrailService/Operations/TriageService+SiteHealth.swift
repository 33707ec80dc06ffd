import CrashtrailCore
import CrashtrailReplay
import CrashtrailReports
import CrashtrailStore

/// What the triage site shows of release health (SPEC section 20): the health page, and on each group's page the
/// transition most over-represented among its crashes.
extension TriageService {
    /// The health page's content; nil when no session and no session trail is counted.
    /// - Throws: `StoreError`.
    func siteHealth(manifests: [Manifest]) throws -> TriageSite.Health? {
        let releases = try health(project: nil, release: nil, since: nil).releases.sorted { Self.releaseOrder($0.release, $1.release) }
        let pathReleases = try pathRateReleases(project: nil).sorted(by: Self.releaseOrder)
        guard !releases.isEmpty || !pathReleases.isEmpty else { return nil }
        let minimum = 30.0
        var risks: [TriageSite.Health.Risk] = []
        var riskRelease: String?
        var riskBaseline: String?
        if let newest = pathReleases.last {
            let compared = pathReleases.count > 1 ? [pathReleases[pathReleases.count - 2], newest] : [newest]
            let report = try pathRates(project: nil, releases: compared, minimumSessions: minimum, manifests: manifests)
            riskRelease = newest
            riskBaseline = report.baseline
            risks = report.rows.filter { $0.ranked && $0.path.kind == .transition }.prefix(10).map { row in
                TriageSite.Health.Risk(
                    path: row.path.description, sessions: DecimalText.short(row.sessions, places: 1), crashed: row.crashed,
                    rate: PathRateReport.percent(row.interval.rate),
                    interval: "\(PathRateReport.percent(row.interval.low))–\(PathRateReport.percent(row.interval.high))",
                    lift: DecimalText.fixed(row.lift, places: 2) + "×", regression: row.regression == true)
            }
        }
        return TriageSite.Health(
            releases: releases.map { row in
                TriageSite.Health.Release(
                    name: row.release, sessions: row.sessions, crashed: row.crashed, abnormal: row.abnormal,
                    crashFreeSessions: row.crashFreeSessions, crashFreeUsers: row.crashFreeUsers, users: row.users)
            }, risks: risks, riskRelease: riskRelease, riskBaseline: riskBaseline, minimumSessions: DecimalText.short(minimum, places: 0))
    }
}

/// The transitions a group's crashes went through, to find the one they take far more often than sessions that did
/// not crash.
struct TransitionShares {
    private var counts: [PathVisits.Path: Int] = [:]
    private var trails = 0

    /// Counts the transitions of one crash's screen path, each once.
    mutating func add(_ screens: [String]) {
        trails += 1
        for path in PathVisits(screens: screens).paths where path.kind == .transition { counts[path, default: 0] += 1 }
    }

    /// The transition whose share among the crashes most exceeds its share among `baseline`'s sessions.
    ///
    /// It must be taken by at least two crashes (or the only one); the session share is smoothed (half a session) so that a transition no
    /// clean session took still compares. Nil without crashes or sessions, or when none is taken more often.
    func mostOverRepresented(comparedWith baseline: PathRates) -> TriageSite.OverRepresented? {
        let sessions = baseline.total.cleanSessions
        guard trails > 0, sessions > 0 else { return nil }
        let needed = min(2, trails)
        var best: (path: PathVisits.Path, crash: Double, clean: Double, lift: Double)?
        for (path, count) in counts where count >= needed {
            let crash = Double(count) / Double(trails)
            let clean = ((baseline.paths[path]?.cleanSessions ?? 0) + 0.5) / (sessions + 1)
            let lift = crash / clean
            if lift > 1, best.map({ lift > $0.lift || (lift == $0.lift && path < $0.path) }) ?? true {
                best = (path, crash, min(1, clean), lift)
            }
        }
        return best.map {
            TriageSite.OverRepresented(
                transition: $0.path.description, crashShare: 100 * $0.crash, sessionShare: 100 * $0.clean, lift: $0.lift)
        }
    }
}
