import ArgumentParser
import CrashtrailCore
import CrashtrailFormats
import CrashtrailService

/// What `show` prints: text for people, one JSON document for programs, or a report as Apple text.
enum ShowFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
    case appleText = "apple-text"
}

/// The `show` command: one report or one crash group (`crashtrail show ID`).
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one stored crash report and the last screens of its trail, or one crash group.",
        discussion: """
            ID is a report ID or a crash group ID (from `crashtrail list`), or any prefix that only one of them \
            has, letters in any case. A whole report ID always means the report; a prefix that starts both a \
            report ID and a group ID is refused, naming both, so give more of it. An ambiguous prefix lists the \
            candidates. A group shows its counts by app version and by day and its newest reports (--limit, 50 by \
            default). Examples:

              crashtrail show 4d1f
              crashtrail show 4d1fe12f9eee --format json
              crashtrail show 5790f65c --steps 20
              crashtrail show 5790f65c --limit 200
              crashtrail show 4d1f --format apple-text > 4d1f.crash

            `--format apple-text` writes a report as an Apple text crash report, as Console renders an `.ips`: \
            whatever format it came in, for the tools that read that one. Load addresses and UUIDs the report did \
            not keep are made up (the zero UUID).
            """
    )

    @Argument(help: "A report ID or a crash group ID, or a prefix only one of them has.")
    var id: String

    @Option(
        name: .long,
        help: "The output format: text for people, json (one canonical JSON document) for programs, or apple-text (a report only).")
    var format: ShowFormat = .text

    /// The old spelling of `--format json`.
    @Flag(name: .customLong("json"), help: .hidden)
    var legacyJSON = false

    @Option(name: .long, help: ArgumentHelp("How many of the trail's last steps the text shows.", valueName: "n"))
    var steps: Int?

    @Option(name: .long, help: ArgumentHelp("For a group: how many of its newest reports to list.", valueName: "n"))
    var limit: Int = 50

    /// The old spelling of `--steps`.
    @Option(name: .customLong("last-steps"), help: .hidden)
    var lastSteps: Int?

    @OptionGroup var projectOptions: ProjectReadOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let count = steps ?? lastSteps, count < 0 { throw ValidationError("--steps takes a count of 0 or more, for example --steps 8") }
        if limit < 0 { throw ValidationError("--limit takes a count of 0 or more, for example --limit 100") }
    }

    func run() throws {
        let text = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false).reading(
                projectNamed: projectOptions.project)
            let format = legacyJSON ? .json : format
            switch try service.item(id, reportLimit: limit) {
            case .group(let detail):
                if format == .appleText {
                    throw ValidationError(
                        "\(id) is the crash group \(detail.group.id); --format apple-text writes one report, so give a report ID from `crashtrail list --group \(detail.group.id)`"
                    )
                }
                return format == .json ? CanonicalJSON.string(of: ShowText.jsonValue(of: detail)) : ShowText.text(of: detail)
            case .report(let record):
                if format == .json { return CanonicalJSON.string(of: record.report.jsonValue) }
                if format == .appleText { return AppleTextWriter.text(of: record.report).dropLast().description }
                let debugFiles = try service.store.debugFileUUIDs(project: record.project)
                return ShowText.text(
                    of: record.report, trail: try record.decodedTrail(), lastSteps: steps ?? lastSteps ?? 8, debugFiles: debugFiles)
            }
        }
        print(text)
    }
}
