import ArgumentParser
import CrashtrailCollector
import CrashtrailPostgres
import CrashtrailCore
import CrashtrailReplay
import Foundation

/// `crashtrail report --html DIR`: a static triage site from the store.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a static triage site from the store: crash groups, the paths that lead to them, every replay.",
        discussion: """
            DIR/index.html lists the crash groups (reports, reports per day, versions, share with a trail, the top \
            path); DIR/groups/ has a page per group (its paths ranked, a chart of where they converge on the crash \
            screen, its reports); DIR/reports/ has the replay page of every report with a trail. The pages are \
            self-contained (no network), and the same store gives the same bytes, so a CI job can publish them.

              crashtrail report --html site
              crashtrail report --html site --app com.example.piratebay --since 2026-11-01
            """
    )

    @Option(name: .customLong("html"), help: ArgumentHelp("The folder to write the site into (created if needed).", valueName: "dir"))
    var folder: String

    @Option(name: .long, help: ArgumentHelp("Only crashes of this app (its bundle ID).", valueName: "bundle-id"))
    var app: String?

    @Option(name: .long, help: ArgumentHelp("Only crashes on or after this day (2026-11-02) or time (RFC 3339).", valueName: "date"))
    var since: String?

    @Option(help: "How many screens of each path the group pages count.")
    var last = 5

    @Option(
        name: .customLong("manifest"),
        help: "The apps' route manifests (files or folders); without it, the manifests the store keeps.")
    var manifests: [String] = []

    @Flag(name: .long, help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let since, TimeBound(since, endOfDay: false) == nil {
            throw ValidationError("--since takes a date such as 2026-11-02 or an RFC 3339 time such as 2026-11-02T14:45:05Z, not \"\(since)\"")
        }
        guard last >= 1 else { throw ValidationError("--last takes a number of screens, 1 or more, for example --last 5") }
    }

    func run() async throws {
        let started = Date()
        do {
            let store = try storeOptions.openExisting()
            let manifests = try ManifestFiles.given(self.manifests, orStoredIn: storeOptions.resolvedPath(), for: "report")
            let filter = ReportFilter(bundleID: app, since: since.flatMap { TimeBound($0, endOfDay: false)?.milliseconds })
            var manifestsByApp = ManifestsByApp(manifests)
            let root = URL(fileURLWithPath: folder)
            var written = 0
            func write(_ page: (path: String, html: String)) throws {
                let url = root.appendingPathComponent(page.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(page.html.utf8).write(to: url, options: .atomic)
                written += 1
            }
            // Each report is read from a cursor, replayed, its page written and let go before the next, so memory
            // stays bounded however many reports the store holds; groups keep only a line of summary per report.
            var groups: [TriageSite.Group] = []
            let stored = try store.groups(filter)
            for (index, group) in stored.enumerated() {
                var groupFilter = filter
                groupFilter.signature = group.signature
                var paths: [[String]] = []
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
                        paths.append(ScreenPath.lastScreens(ScreenPath.names(of: trail, manifest: manifest), count: last))
                        if !quiet, written % 1_000 == 0 { printError("wrote \(written) report pages") }
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
                        paths: PathTable(paths: paths, last: last, reportsWithTrail: group.withTrail), reports: siteReports,
                        moreReports: moreReports))
                if !quiet, stored.count > 20, (index + 1) % 20 == 0 {
                    printError("read \(index + 1) of \(stored.count) groups")
                }
            }
            let site = TriageSite(
                groups: groups, app: app, since: since,
                source: Self.sourceName(storeOptions.resolvedPath()))
            for page in site.pages() { try write(page) }
            if !quiet {
                let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
                print("Wrote \(written) pages to \(folder) (\(groups.count) groups, \(groups.reduce(0) { $0 + $1.count }) reports) in \(seconds) s; open \(root.appendingPathComponent("index.html").path)")
            }
        } catch {
            printFailure(error)
            throw ExitCode.failure
        }
    }

    /// How the pages name the store: an SQLite file's name, or a PostgreSQL store's database.
    static func sourceName(_ store: String) -> String {
        PostgresLocation.isPostgresURL(store)
            ? ((try? PostgresLocation(store).database) ?? "PostgreSQL") : URL(fileURLWithPath: store).lastPathComponent
    }
}
