import CrashtrailCore
import CrashtrailReplay
import CrashtrailStore

extension TriageService {
    /// A page of the triage site rendered from the store as it is now, for `crashtrail serve`: `index.html` (or the
    /// empty path), `health.html`, `groups/NAME.html` or `reports/NAME.html`, the paths `crashtrail report --html` writes.
    ///
    /// Pages link to each other as the written site's do. A group's paths come from the screen paths stored with its
    /// reports (``paths(group:screens:manifests:)``), its counts from the store, and it lists its newest
    /// `TriageSite.listedReports` reports.
    /// - Parameters:
    ///   - path: the page's path in the site.
    ///   - screens: how many screens of each path the pages count.
    /// - Returns: the page, or nil when no group or report has that name.
    /// - Throws: `StoreError`. A report whose trail does not replay gets the page of a report without a replay.
    public func sitePage(_ path: String, screens: Int = 5) throws -> String? {
        let manifests = try store.storedManifests()
        if path.isEmpty || path == "index.html" {
            let merges = try groupMerges()
            let groups = try store.groups(scoped(.all)).map {
                try siteGroup($0, screens: screens, manifests: manifests, listed: 0, merges: merges)
            }
            // The index only links the health page; rendering it would replay every crash trail.
            return TriageSite(groups: groups, source: location.siteName, linksHealth: try store.hasReleaseHealth()).indexPage()
        }
        if path == "health.html" {
            let site = TriageSite(groups: [], source: location.siteName, health: try siteHealth(manifests: manifests))
            return site.health.map(site.healthPage)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasSuffix(".html") else { return nil }
        let name = String(parts[1].dropLast(".html".count))
        // A file name is the ID's safe characters, a dash and a hash of the whole ID: the first part finds the
        // candidates, the whole name must then match.
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let prefix = String(name[..<dash])
        switch parts[0] {
        case "groups":
            guard let group = try? store.group(matchingPrefix: prefix, project: project), TriageSite.fileName(for: group.id) == name else {
                return nil
            }
            let site = TriageSite(
                groups: [
                    try siteGroup(
                        group, screens: screens, manifests: manifests, listed: TriageSite.listedReports, merges: try groupMerges())
                ],
                source: location.siteName)
            return site.groupPage(site.groups[0])
        case "reports":
            guard let record = try? store.record(matchingPrefix: prefix, project: project), TriageSite.fileName(for: record.id) == name
            else { return nil }
            let report = record.report
            let groupID = CrashGroup.id(ofSignature: record.signature)
            let missing = (try store.imagesWithoutDebugFiles(reportID: record.id)[record.id] ?? []).map {
                TriageSite.MissingImage(name: $0.name, uuid: $0.uuid)
            }
            // The trail names its app, as the written site reads it.
            var byApp = ManifestsByApp(manifests)
            let app = record.trail.flatMap { Self.trailApp($0) } ?? report.app.bundleID
            let manifestKnown = app.flatMap { byApp.manifest(for: $0) } != nil
            // Every report has a page: the replay when its trail replays, else its crashed thread and why not.
            guard report.trailInfo.source.hasTrail, let outcome = try? ReplayOperation.replay(storedReport: record.id, service: self)
            else {
                return TriageSite.reportPage(
                    Self.siteSummary(of: report, manifestKnown: manifestKnown), groupID: groupID, frames: Self.siteFrames(of: report),
                    missingImages: missing, source: location.siteName
                ).html
            }
            return TriageSite.reportPage(
                outcome.replay, reportID: record.id, groupID: groupID, frames: Self.siteFrames(of: report), missingImages: missing
            ).html
        default:
            return nil
        }
    }

    /// What the site shows of a group, with its newest `listed` reports.
    private func siteGroup(
        _ group: CrashGroup, screens: Int, manifests: [Manifest], listed: Int, merges: [GroupMerge]
    ) throws -> TriageSite.Group {
        let detail = try store.groupDetail(matchingPrefix: group.id, reportLimit: listed, project: project)
        let paths = try self.paths(group: group.id, screens: screens, manifests: manifests)
        let reports = detail.reports.map { report in
            TriageSite.Report(
                id: report.id, time: report.time, version: report.app.version, format: report.format.rawValue,
                trail: report.trailInfo.source.rawValue)
        }
        var siteGroup = TriageSite.Group(
            id: group.id, signature: group.signature, count: group.count, firstSeen: group.firstSeen, lastSeen: group.lastSeen,
            versions: group.versions, withTrail: group.withTrail, byDay: detail.byDay, paths: paths.table, reports: reports,
            moreReports: detail.moreReports, merged: Self.merged(into: group.signature, merges))
        // A group's own page (not the index) names the transition its crashes take far more often than clean sessions.
        if listed > 0 {
            let baseline = try store.cleanPathVisits(project: project, release: nil)
            if baseline.total.sampledTrails > 0 {
                var byApp = ManifestsByApp(manifests)
                var transitions = TransitionShares()
                try store.forEachCrashTrail(signatures: [group.signature], project: project) { crash in
                    guard let trail = try? Trail(json: Array(crash.trailJSON.utf8)), let manifest = byApp.manifest(for: trail.app.bundleID)
                    else { return }
                    transitions.add(ScreenPath.names(of: trail, manifest: manifest))
                }
                siteGroup.overRepresented = transitions.mostOverRepresented(comparedWith: baseline)
            }
        }
        return siteGroup
    }
}
