import CrashtrailCore
import CrashtrailReplay
import CrashtrailStore
import Foundation

/// What writing the triage site did.
public struct SiteSummary: Sendable {
    /// Pages written.
    public var pages = 0
    /// Crash groups on the index.
    public var groups = 0
    /// Reports in those groups.
    public var reports = 0
}

/// How far writing the triage site got, for a progress line.
public enum SiteProgress: Sendable {
    /// Report pages written so far (told every 1,000).
    case reportPages(Int)
    /// Groups read so far, of all (told every 20 when there are more than 20).
    case groups(done: Int, of: Int)
}

extension TriageService {
    /// Writes the static triage site for the reports `filter` takes into `folder`: the index, a page per group and
    /// the replay page of every report with a trail (`crashtrail report --html`).
    ///
    /// Each report is read from a cursor, replayed, its page written and let go before the next, so memory stays
    /// bounded however many reports the store holds; groups keep only a line of summary per report.
    /// - Parameters:
    ///   - folder: the folder written into (made if missing).
    ///   - filter: the reports the site shows.
    ///   - since: the `--since` text the index names, if any.
    ///   - screens: how many screens of each path the group pages count.
    ///   - manifests: the apps' manifests.
    ///   - progress: told how far the writing got.
    /// - Returns: the pages, groups and reports written.
    /// - Throws: `StoreError`, or the file system's error writing a page.
    public func writeSite(
        to folder: URL, filter: ReportFilter, since: String? = nil, screens: Int, manifests: [Manifest],
        progress: ((SiteProgress) -> Void)? = nil
    ) throws -> SiteSummary {
        var manifestsByApp = ManifestsByApp(manifests)
        var summary = SiteSummary()
        func write(_ page: (path: String, html: String)) throws {
            let url = folder.appendingPathComponent(page.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(page.html.utf8).write(to: url, options: .atomic)
            summary.pages += 1
        }
        var groups: [TriageSite.Group] = []
        let stored = try store.groups(filter)
        for (index, group) in stored.enumerated() {
            var groupFilter = filter
            groupFilter.signature = group.signature
            var paths: [(screens: [String], inferred: Bool)] = []
            var siteReports: [TriageSite.Report] = []
            var moreReports = 0
            var days: [String: Int] = [:]
            var failure: (any Error)?
            try store.forEachReport(groupFilter) { report, trailJSON in
                guard failure == nil else { return }
                days[CrashGroupDetail.day(of: report), default: 0] += 1
                var hasPage = false
                if report.trailInfo.source.hasTrail, let json = trailJSON, let trail = try? Trail(json: Array(json.utf8)),
                    let manifest = manifestsByApp.manifest(for: trail.app.bundleID)
                {
                    let replay = Replayer(manifest: manifest).replay(trail, report: report.id)
                    do {
                        try write(TriageSite.reportPage(replay, reportID: report.id, groupID: group.id))
                    } catch {
                        failure = failure ?? error
                        return
                    }
                    hasPage = true
                    // Only the screens the table counts are kept, not whole paths.
                    paths.append(
                        (
                            ScreenPath.lastScreens(ScreenPath.names(of: trail, manifest: manifest), count: screens),
                            report.trailInfo.source == .inferred
                        ))
                    if summary.pages % 1_000 == 0 { progress?(.reportPages(summary.pages)) }
                }
                guard siteReports.count < TriageSite.listedReports else {
                    moreReports += 1
                    return
                }
                siteReports.append(
                    TriageSite.Report(
                        id: report.id, time: report.time, version: report.app.version, format: report.format.rawValue,
                        trail: report.trailInfo.source.rawValue, hasPage: hasPage))
            }
            if let failure { throw failure }
            let byDay = days.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { (day: $0.key, count: $0.value) }
            groups.append(
                TriageSite.Group(
                    id: group.id, signature: group.signature, count: group.count, firstSeen: group.firstSeen,
                    lastSeen: group.lastSeen, versions: group.versions, withTrail: group.withTrail, byDay: byDay,
                    paths: PathTable(paths: paths, last: screens, reportsWithTrail: group.withTrail), reports: siteReports,
                    moreReports: moreReports))
            if stored.count > 20, (index + 1) % 20 == 0 { progress?(.groups(done: index + 1, of: stored.count)) }
        }
        let site = TriageSite(groups: groups, app: filter.bundleID, since: since, source: location.siteName)
        for page in site.pages() { try write(page) }
        summary.groups = groups.count
        summary.reports = groups.reduce(0) { $0 + $1.count }
        return summary
    }
}
