import ArgumentParser
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
            screen, its reports); DIR/reports/ has the replay page of every report with a trail. The pages are \
            self-contained (no network), and the same store gives the same bytes, so a CI job can publish them.

              crashtrail report --html site
              crashtrail report --html site --app com.example.piratebay --since 2026-11-01
            """
    )

    @Option(name: .customLong("html"), help: ArgumentHelp("The folder to write the site into (created if needed).", valueName: "dir"))
    var folder: String

    @OptionGroup var filterOptions: FilterOptions

    @Option(name: .long, help: ArgumentHelp("How many screens of each path the group pages count.", valueName: "n"))
    var screens: Int?

    /// The old spelling of `--screens`.
    @Option(name: .customLong("last"), help: .hidden)
    var last: Int?

    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var quietOptions: QuietOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard (screens ?? last ?? 5) >= 1 else {
            let name = screens == nil ? "--last" : "--screens"
            throw ValidationError("\(name) takes a number of screens, 1 or more, for example \(name) 5")
        }
    }

    func run() throws {
        let started = Date()
        let quiet = quietOptions.quiet
        let summary = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            let manifests = try service.manifests(given: try self.manifests.load(), for: "report")
            return try service.writeSite(
                to: URL(fileURLWithPath: folder), filter: filterOptions.filter, since: filterOptions.since, screens: screens ?? last ?? 5,
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
        print("Wrote \(summary.pages) pages to \(folder) (\(summary.groups) groups, \(summary.reports) reports) in \(seconds) s; open \(index)")
    }
}
