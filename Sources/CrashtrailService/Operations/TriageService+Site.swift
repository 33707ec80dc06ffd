import CrashtrailCore
import CrashtrailReplay
import CrashtrailReports
import CrashtrailStore
import Foundation

/// What writing the triage site did.
public struct SiteSummary: Sendable {
    /// Pages written.
    public var pages = 0
    /// Pages left as they were: their inputs had not changed since the last run into the folder.
    public var unchanged = 0
    /// Pages removed: their reports left the selection, or their groups are gone.
    public var removed = 0
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
    /// The folder keeps what the last run wrote (`.crashtrail-site.json`): a report page whose inputs have not changed is
    /// not replayed or written again, a group page or the index is written only when its HTML changed, and the pages
    /// of reports that left the selection are removed. The result is the same bytes as a run into an empty folder.
    ///
    /// Each report is read from a cursor, replayed only when its page is written, and let go before the next, so
    /// memory stays bounded however many reports the store holds; groups keep only a line of summary per report.
    /// A group's paths come from the screen paths stored with its reports, and from a replay where none is stored.
    /// - Parameters:
    ///   - folder: the folder written into (made if missing).
    ///   - filter: the reports the site shows.
    ///   - since: the `--since` text the index names, if any.
    ///   - screens: how many screens of each path the group pages count.
    ///   - manifests: the apps' manifests.
    ///   - progress: told how far the writing got.
    /// - Returns: the pages written, kept and removed, and the groups and reports shown.
    /// - Throws: `StoreError`, or the file system's error writing a page.
    public func writeSite(
        to folder: URL, filter: ReportFilter, since: String? = nil, screens: Int, manifests: [Manifest],
        progress: ((SiteProgress) -> Void)? = nil
    ) throws -> SiteSummary {
        let filter = scoped(filter)
        var manifestsByApp = ManifestsByApp(manifests)
        var summary = SiteSummary()
        let previous = SiteManifest.read(in: folder)
        var current = SiteManifest()
        func write(_ path: String, _ html: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(html.utf8).write(to: url, options: .atomic)
            summary.pages += 1
        }
        /// Writes a page unless the last run wrote the same HTML there.
        func writeIfChanged(_ page: (path: String, html: String)) throws {
            let fingerprint = TriageSite.fnv1a(page.html)
            current.pages[page.path] = fingerprint
            if previous.pages[page.path] == fingerprint,
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(page.path).path)
            {
                summary.unchanged += 1
            } else {
                try write(page.path, page.html)
            }
        }
        var groups: [TriageSite.Group] = []
        // Sessions that did not crash, every release: what each group's crashes are compared with.
        let baseline = try store.cleanPathVisits(project: project, release: nil)
        let stored = try store.groups(filter)
        let merges = try groupMerges()
        for (index, group) in stored.enumerated() {
            var groupFilter = filter
            groupFilter.signature = group.signature
            var paths: [(screens: [String], inferred: Bool)] = []
            var siteReports: [TriageSite.Report] = []
            var moreReports = 0
            var days: [String: Int] = [:]
            var transitions = TransitionShares()
            var failure: (any Error)?
            let missingByReport = try store.imagesWithoutDebugFiles(signature: group.signature)
            try store.forEachRecord(groupFilter) { record in
                guard failure == nil else { return }
                let report = record.report
                days[CrashGroupDetail.day(of: report), default: 0] += 1
                var hasPage = false
                let frames = Self.siteFrames(of: report)
                let missing = (missingByReport[report.id] ?? []).map { TriageSite.MissingImage(name: $0.name, uuid: $0.uuid) }
                var manifestKnown = false
                if report.trailInfo.source.hasTrail, let json = record.trail,
                    let app = Self.trailApp(json) ?? (try? Trail(json: Array(json.utf8)))?.app.bundleID,
                    let manifest = manifestsByApp.manifest(for: app)
                {
                    manifestKnown = true
                    let path = "reports/\(TriageSite.fileName(for: report.id)).html"
                    let inputs =
                        "\u{0}\(report.id)\u{0}\(group.id)\u{0}\(manifest.fingerprint)\u{0}\(TriageSite.rendererFingerprint)"
                        + frames.map(\.fingerprint).joined(separator: "\u{2}")
                        + missing.map { "\u{3}\($0.name)\u{1}\($0.uuid)" }.joined()
                    let fingerprint = TriageSite.fnv1a(json, inputs)
                    var trail: Trail?
                    if previous.pages[path] == fingerprint, FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
                    {
                        summary.unchanged += 1
                        hasPage = true
                    } else if let parsed = try? Trail(json: Array(json.utf8)) {
                        trail = parsed
                        let replay = Replayer(manifest: manifest).replay(parsed, report: report.id)
                        do {
                            try write(
                                path,
                                TriageSite.reportPage(
                                    replay, reportID: report.id, groupID: group.id, frames: frames, missingImages: missing
                                )
                                .html)
                        } catch {
                            failure = failure ?? error
                            return
                        }
                        hasPage = true
                        if summary.pages % 1_000 == 0 { progress?(.reportPages(summary.pages)) }
                    }
                    if baseline.total.sampledTrails > 0, report.trailInfo.source != .inferred,
                        let parsed = trail ?? (try? Trail(json: Array(json.utf8)))
                    {
                        trail = parsed
                        transitions.add(ScreenPath.names(of: parsed, manifest: manifest))
                    }
                    if hasPage {
                        current.pages[path] = fingerprint
                        // Only the screens the table counts are kept, not whole paths.
                        let inferred = report.trailInfo.source == .inferred
                        if let last = record.storedScreenPath?.lastScreens(screens, replayedWith: manifest) {
                            paths.append((last, inferred))
                        } else if let parsed = trail ?? (try? Trail(json: Array(json.utf8))) {
                            paths.append(
                                (ScreenPath.lastScreens(ScreenPath.names(of: parsed, manifest: manifest), count: screens), inferred))
                        }
                    }
                }
                // Every report has a page: without a replay, its crashed thread as symbolicated and why there is none.
                if !hasPage {
                    let page = TriageSite.reportPage(
                        Self.siteSummary(of: report, manifestKnown: manifestKnown), groupID: group.id, frames: frames,
                        missingImages: missing, source: location.siteName)
                    do {
                        try writeIfChanged(page)
                    } catch {
                        failure = failure ?? error
                        return
                    }
                }
                guard siteReports.count < TriageSite.listedReports else {
                    moreReports += 1
                    return
                }
                siteReports.append(
                    TriageSite.Report(
                        id: report.id, time: report.time, version: report.app.version, format: report.format.rawValue,
                        trail: report.trailInfo.source.rawValue))
            }
            if let failure { throw failure }
            let byDay = days.sorted { CanonicalJSON.codePointPrecedes($0.key, $1.key) }.map { (day: $0.key, count: $0.value) }
            var siteGroup = TriageSite.Group(
                id: group.id, signature: group.signature, count: group.count, firstSeen: group.firstSeen,
                lastSeen: group.lastSeen, versions: group.versions, withTrail: group.withTrail, byDay: byDay,
                paths: PathTable(paths: paths, last: screens, reportsWithTrail: group.withTrail), reports: siteReports,
                moreReports: moreReports, merged: Self.merged(into: group.signature, merges))
            siteGroup.overRepresented = transitions.mostOverRepresented(comparedWith: baseline)
            groups.append(siteGroup)
            if stored.count > 20, (index + 1) % 20 == 0 { progress?(.groups(done: index + 1, of: stored.count)) }
        }
        let site = TriageSite(
            groups: groups, app: filter.bundleID, since: since, source: location.siteName, health: try siteHealth(manifests: manifests))
        for page in site.pages() { try writeIfChanged(page) }
        // Pages of reports and groups that left the selection since the last run.
        for path in previous.pages.keys where current.pages[path] == nil {
            let url = folder.appendingPathComponent(path)
            if (try? FileManager.default.removeItem(at: url)) != nil { summary.removed += 1 }
        }
        try current.write(in: folder)
        summary.groups = groups.count
        summary.reports = groups.reduce(0) { $0 + $1.count }
        return summary
    }

    /// The manifests the site of the reports `filter` takes is written with: those given, else the store's; none when
    /// no report there has a trail, since only a replay needs one.
    /// - Throws: `ManifestError` when a report has a trail and no manifest is given or kept; `StoreError`.
    public func siteManifests(given: [LoadedManifest], filter: ReportFilter) throws -> [Manifest] {
        if !given.isEmpty { return given.map(\.manifest) }
        let stored = try store.storedManifests()
        guard stored.isEmpty else { return stored }
        guard try store.groups(scoped(filter)).contains(where: { $0.withTrail > 0 }) else { return [] }
        throw Self.noManifest(for: "report --html (a report's trail to replay)", location: location)
    }

    /// The app of a stored trail, read from its canonical JSON without parsing it: `app` is its first key, and
    /// `bundleID` the first of those that holds text.
    static func trailApp(_ json: String) -> String? {
        let head = Array(json.utf8.prefix(512))
        guard head.starts(with: Array(#"{"app":{"#.utf8)), let key = head.firstRange(of: Array(#""bundleID":""#.utf8)) else { return nil }
        let value = head[key.upperBound...]
        guard let end = value.firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }), head[end] == UInt8(ascii: "\"")
        else { return nil }
        return String(decoding: value[..<end], as: UTF8.self)
    }

    /// The signatures merged into `signature` by hand, in any of `merges`' projects, in code point order.
    static func merged(into signature: String, _ merges: [GroupMerge]) -> [String] {
        Set(merges.filter { $0.into == signature }.map(\.signature)).sorted(by: CanonicalJSON.codePointPrecedes)
    }

    /// What the page of a report without a replay says of it, and why it has no replay.
    static func siteSummary(of report: CrashReport, manifestKnown: Bool) -> TriageSite.ReportSummary {
        let app = [report.app.bundleID ?? "unknown app", report.app.version ?? "", report.app.build.map { "(\($0))" } ?? ""]
        let os = [report.os.name ?? "unknown OS", report.os.version ?? ""]
        let noReplay: String
        switch report.trailInfo.source {
        case .undecodable:
            noReplay = "Its trail could not be decoded\(report.trailInfo.error.map { ": \($0)" } ?? ".")"
        case .missing:
            noReplay =
                "It carries no trail and none joined it, so there is no replay: the app records one with CrashtrailRecording (docs/RECORDING.md)."
        default:
            noReplay =
                manifestKnown
                ? "Its trail could not be read again from the store; crashtrail replay \(report.id) says why."
                : "Its trail needs the manifest of \(report.app.bundleID ?? "its app"), which the store does not keep: add it with crashtrail manifest add FILE, then write the site again."
        }
        return TriageSite.ReportSummary(
            id: report.id, exception: CrashSignature.head(of: report.exception),
            reason: report.exception.completed().language?.reason ?? report.exception.reason,
            app: app.filter { !$0.isEmpty }.joined(separator: " "), os: os.filter { !$0.isEmpty }.joined(separator: " "),
            device: report.device ?? "unknown device", time: report.time ?? "unknown time", format: report.format.rawValue,
            noReplay: noReplay)
    }

    /// The crashed thread's frames as the report page shows them.
    static func siteFrames(of report: CrashReport) -> [TriageSite.Frame] {
        StackFrame.numbered(report.frames).map { number, frame in
            TriageSite.Frame(
                number: number, image: frame.image ?? "???", function: frame.symbol, location: frame.sourceLocation,
                inlined: frame.inlined, offset: frame.offset)
        }
    }
}
