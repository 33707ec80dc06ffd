import CrashtrailCore
import CrashtrailReplay
import CrashtrailReports
import CrashtrailStore

/// Release health (SPEC section 20): crash-free sessions and users per release, from the sessions Sentry's SDKs send.
public struct HealthReport: Sendable {
    /// One release's row.
    public struct Release: Sendable, Hashable {
        public var release: String
        public var sessions: Int64
        public var crashed: Int64
        public var abnormal: Int64
        public var errored: Int64
        /// Distinct users (an estimate, within the user sketch's standard error, 1.6 %).
        public var users: Int64
        public var crashedUsers: Int64

        /// The share of sessions that did not crash, in percent; nil without sessions.
        public var crashFreeSessions: Double? { sessions > 0 ? 100 * Double(sessions - min(crashed, sessions)) / Double(sessions) : nil }
        /// The share of users none of whose sessions crashed, in percent; nil without users.
        public var crashFreeUsers: Double? { users > 0 ? 100 * Double(users - min(crashedUsers, users)) / Double(users) : nil }
    }

    /// The releases, by name.
    public var releases: [Release]
    /// The project the report covers; nil for every project.
    public var project: Project?
}

/// The crash rate of every path of a release (SPEC section 20), with the notes on what was left out.
public struct PathRateReport: Sendable {
    /// The release the rows are for (the newer one, with two).
    public var release: String
    /// The older release compared with, if any.
    public var baseline: String?
    /// The rows, riskiest first.
    public var rows: [PathRates.Row]
    /// The release's own counts and rate.
    public var total: PathRates.Counts
    public var releaseInterval: RateInterval
    /// The fewest sessions a row needs to be ranked.
    public var minimumSessions: Double
    /// Notes for people: releases without counts, manifests missing, sampled counts.
    public var notes: [String]
}

extension TriageService {
    /// The crash-free sessions and users of each release of `project` (the project the service reads when nil, every
    /// project for a service of every project), from `since` on.
    /// - Throws: `StoreError` (`not-found` for an unknown project).
    package func health(project idOrName: String?, release: String?, since: Int64?) throws -> HealthReport {
        let project = try project(named: idOrName)
        let sinceHour = since.map { $0 >= 0 ? $0 / 3_600_000 : ($0 - 3_599_999) / 3_600_000 }
        let rows = try store.releaseSessions(
            project: ProjectScope(project, otherwise: self.project), release: release, sinceHour: sinceHour
        ).map { row in
            HealthReport.Release(
                release: row.release, sessions: row.counts.started, crashed: row.counts.crashed, abnormal: row.counts.abnormal,
                errored: row.counts.errored, users: Int64(row.counts.users.estimate), crashedUsers: Int64(row.counts.crashedUsers.estimate))
        }
        return HealthReport(releases: rows, project: project)
    }

    /// The releases with counted paths, by name, for `project` (every project when nil).
    /// - Throws: `StoreError`.
    package func pathRateReleases(project idOrName: String?) throws -> [String] {
        try store.pathVisitReleases(project: ProjectScope(try project(named: idOrName), otherwise: self.project))
    }

    /// The crash rate of each screen, transition and sequence of `releases` (one, or an older and a newer one), from
    /// the sampled trails of sessions that did not crash and the crashed sessions' recorded trails, replayed with
    /// `manifests`.
    /// - Parameters:
    ///   - idOrName: a project's ID or name; nil for every project.
    ///   - requested: `BUNDLE@VERSION+BUILD`; empty for the newest release with counts, two to mark regressions.
    ///   - minimumSessions: the fewest sessions a path needs to be ranked.
    ///   - manifests: the apps' manifests, to replay the crashes' trails.
    /// - Returns: the rows of the last release, riskiest first, with notes.
    /// - Throws: `StoreError` (`not-found` when no release has paths counted).
    package func pathRates(
        project idOrName: String?, releases requested: [String], minimumSessions: Double, manifests: [Manifest]
    ) throws -> PathRateReport {
        let project = try project(named: idOrName)
        // The project the service reads, when none is named.
        let projectID = ProjectScope(project, otherwise: self.project)
        var releases = requested
        if releases.isEmpty {
            guard let newest = try store.pathVisitReleases(project: projectID).max(by: Self.releaseOrder) else {
                throw StoreError(
                    .notFound,
                    "no trails of sessions that did not crash are counted\(project.map { " for project \($0.name)" } ?? ""): the "
                        + "recorder sends them when the app sets a sample rate (SPEC section 20); ingest --trails and POST /api/ID/trails count them"
                )
            }
            releases = [newest]
        }
        var rates = Dictionary(
            uniqueKeysWithValues: try releases.map { ($0, try store.cleanPathVisits(project: projectID, release: $0)) })
        var notes: [String] = []
        var byApp = ManifestsByApp(manifests)
        var unreadable = 0
        var noManifest: Set<String> = []
        // The crashed sessions: every crash report with a recorded trail of these releases, replayed as it is read
        // (the replay is pure; nothing here uses the store).
        try store.forEachCrashTrail(project: projectID) { crash in
            guard let trail = try? Trail(json: Array(crash.trailJSON.utf8)) else {
                unreadable += 1
                return
            }
            let release = Self.release(of: trail)
            guard rates[release] != nil else { return }
            guard let manifest = byApp.manifest(for: trail.app.bundleID) else {
                noManifest.insert(trail.app.bundleID)
                return
            }
            rates[release]?.add(PathVisits(screens: ScreenPath.names(of: trail, manifest: manifest)), PathRates.Counts(crashed: 1))
        }
        if unreadable > 0 { notes.append("\(counted(unreadable, "stored trail")) could not be read and were left out") }
        for app in noManifest.sorted() {
            notes.append("crashes of \(app) were left out: no manifest of it was given (--manifest) or stored (crashtrail manifest add)")
        }
        notes += byApp.warnings
        let release = releases.last ?? ""
        let baseline = releases.count > 1 ? rates[releases[0]] : nil
        let current = rates[release] ?? PathRates()
        for name in releases where (rates[name]?.total.sessions ?? 0) == 0 {
            notes.append("release \(name) has no sessions with trails counted")
        }
        let rows = current.rows(minimumSessions: minimumSessions, baseline: baseline)
        if rows.contains(where: \.scaled) {
            notes.append("sessions that did not crash are sampled: their counts are scaled by 1 / sample rate")
        }
        return PathRateReport(
            release: release, baseline: releases.count > 1 ? releases[0] : nil, rows: rows, total: current.total,
            releaseInterval: current.releaseInterval, minimumSessions: minimumSessions, notes: notes)
    }

    /// A trail's release, as Sentry names it: `BUNDLE@VERSION+BUILD`.
    static func release(of trail: Trail) -> String {
        GroupingRuleBook.release(bundleID: trail.app.bundleID, version: trail.app.version, build: trail.app.build) ?? trail.app.bundleID
    }

    /// Orders release names by their version and build as numbers where they are numbers (`1.10.0` after `1.9.2`).
    static func releaseOrder(_ lhs: String, _ rhs: String) -> Bool {
        func parts(_ name: String) -> [String] {
            let version = name.split(separator: "@", maxSplits: 1).last.map(String.init) ?? name
            return version.split(whereSeparator: { $0 == "." || $0 == "+" }).map(String.init)
        }
        for (left, right) in zip(parts(lhs), parts(rhs)) where left != right {
            if let l = Int(left), let r = Int(right) { return l < r }
            return left < right
        }
        return parts(lhs).count < parts(rhs).count || (parts(lhs).count == parts(rhs).count && lhs < rhs)
    }
}
