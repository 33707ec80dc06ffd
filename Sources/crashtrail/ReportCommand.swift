import ArgumentParser
import CrashtrailCore
import CrashtrailService
import Foundation

/// `crashtrail report --html DIR`: a static triage site from the store.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a static triage site from the store: crash groups, the paths that lead to them, every replay.",
        discussion: """
            DIR/index.html lists the crash groups (reports, reports per day, versions, share with a trail, the top \
            path); DIR/groups/ has a page per group (its paths ranked, a chart of where they converge on the crash \
            screen, its reports); DIR/reports/ has a page for every report: its crashed thread as symbolicated, \
            the app's images without a debug file, and its replay when its trail has one. A manifest is needed only \
            when a report has a trail to replay. The pages are self-contained (no network), and the same store gives the same bytes, so a CI job can publish them. \
            Run again into the same folder, it writes only the pages whose inputs changed (DIR/.crashtrail-site.json \
            remembers them) and removes those of reports that left the selection.

              crashtrail report --html site
              crashtrail report --html site --app com.example.piratebay --since 2026-11-01
            """
    )

    @Option(name: .customLong("html"), help: ArgumentHelp("The folder to write the site into (created if needed).", valueName: "dir"))
    var folder: String

    @OptionGroup var filterOptions: FilterOptions

    @OptionGroup var screens: ScreensOptions

    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var quietOptions: QuietOptions
    @OptionGroup var projectOptions: ProjectReadOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let started = Date()
        let quiet = quietOptions.quiet
        let summary = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false).reading(
                projectNamed: projectOptions.project)
            let manifests = try service.siteManifests(given: try self.manifests.load(), filter: filterOptions.filter)
            return try service.writeSite(
                to: URL(fileURLWithPath: folder), filter: filterOptions.filter, since: filterOptions.since, screens: screens.count,
                manifests: manifests
            ) { progress in
                guard !quiet else { return }
                switch progress {
                case .reportPages(let count): printError("wrote \(count) report pages")
                case .groups(let done, let total): printError("read \(done) of \(total) groups")
                }
            }
        }
        guard !quiet else { return }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let index = URL(fileURLWithPath: folder).appendingPathComponent("index.html").path
        var kept: [String] = []
        if summary.unchanged > 0 { kept.append("\(summary.unchanged) unchanged") }
        if summary.removed > 0 { kept.append("\(summary.removed) removed") }
        let more = kept.isEmpty ? "" : " (\(kept.joined(separator: ", ")))"
        print(
            "Wrote \(counted(summary.pages, "page"))\(more) to \(folder) (\(counted(summary.groups, "group")), \(counted(summary.reports, "report"))) in \(seconds) s; open \(index)"
        )
    }
}
