import ArgumentParser
import CrashtrailCore
import CrashtrailService

/// `crashtrail paths [--group GROUP]`: which screen paths lead to a crash (SPEC section 13).
struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Show which paths through the app lead to a crash.",
        discussion: """
            A stored report's screen path is the screen on top after each step of its trail, kept when the trail \
            was stored (a trail is replayed on a headless Navigator only when no path was kept for the manifest \
            in use, or more than 16 screens are asked for). The last screens of each path (5 unless --screens \
            says otherwise) are counted: the table lists each distinct sequence with how many reports share it \
            and their share of the reports with a trail, most first. --group takes a group ID from `crashtrail list` (or a unique \
            prefix); without it, every report counts. Examples:

              crashtrail paths --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail paths --group 3f2a --screens 3 --format json --manifest manifests/

            --rate answers whether a path is dangerous or just common (SPEC section 20): for each screen, \
            transition and sequence of three screens of a release, the sessions through it (the sampled trails of \
            sessions that did not crash, scaled by their sample rate, and the crashed sessions' recorded trails), \
            the crashed ones, the crash rate with its 95 % Wilson interval and its lift over the release's rate, \
            the riskiest first (by the low end of the interval). Paths with fewer sessions than --min-sessions are \
            not ranked. With two releases (--release OLD --release NEW), a path whose rate in NEW rose beyond both \
            intervals is marked as a regression.

              crashtrail paths --rate --manifest manifests/
              crashtrail paths --rate --release shop@3.0.0+400 \\
                --release shop@3.1.0+412
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("A crash group ID from `crashtrail list`, or a unique prefix of one; every report when absent.", valueName: "id")
    )
    var group: String?

    /// The old spelling of `--group`: the group as an argument.
    @Argument(help: .hidden)
    var groupArgument: String?

    @OptionGroup var screens: ScreensOptions

    @Flag(help: "The crash rate of every screen, transition and sequence, with intervals, instead of the last screens.")
    var rate = false

    @Option(help: "With --rate: a release (BUNDLE@VERSION+BUILD); give two to mark regressions; the newest when absent.")
    var release: [String] = []

    @Option(help: "With --rate: the fewest sessions a path needs to be ranked.")
    var minSessions: Double = 30

    @Option(help: "Only the crashes (and with --rate, the sessions) of this project: its ID or name; every project's when absent.")
    var project: String?

    @Option(help: "With --rate, in text: the most ranked paths to list.")
    var limit: Int = 20

    @OptionGroup var output: OutputOptions
    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if group != nil, groupArgument != nil { throw ValidationError("give the group once, with --group") }
        if !rate, !release.isEmpty {
            throw ValidationError(
                "--release goes with --rate: crashtrail paths --rate --release \(release.first ?? "APP@1.0+1")")
        }
        if rate, group != nil || groupArgument != nil {
            throw ValidationError("--rate counts every session of a release, not a group; leave out --group")
        }
        if release.count > 2 { throw ValidationError("give at most two releases: --release OLD --release NEW") }
        if minSessions < 0 || !minSessions.isFinite { throw ValidationError("--min-sessions must be 0 or more") }
        if limit < 1 { throw ValidationError("--limit must be 1 or more") }
    }

    func run() throws {
        if rate { return try runRates() }
        let result = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false).reading(projectNamed: project)
            let manifests = try service.manifests(given: try self.manifests.load(), for: "paths")
            return try service.paths(group: group ?? groupArgument, screens: screens.count, manifests: manifests)
        }
        for note in result.notes { printError(note) }
        if output.isJSON {
            print(CanonicalJSON.string(of: result.table.jsonValue))
        } else {
            print(result.table.text(title: result.title), terminator: "")
        }
    }

    /// `--rate`: the crash rate of every path.
    private func runRates() throws {
        let report = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            let manifests = try service.manifests(given: try self.manifests.load(), for: "paths")
            return try service.pathRates(project: project, releases: release, minimumSessions: minSessions, manifests: manifests)
        }
        for note in report.notes { printError("note: \(note)") }
        print(output.isJSON ? report.json : report.text(limit: limit), terminator: output.isJSON ? "\n" : "")
    }
}
