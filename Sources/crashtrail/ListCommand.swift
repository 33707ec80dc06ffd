import ArgumentParser
import CrashtrailCore
import CrashtrailService

/// The `list` command: crash groups, or reports (`crashtrail list [--reports]`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored crash groups, or the reports.",
        discussion: """
            Groups are crashes with the same signature, most frequent first, then the most recently seen; each has an \
            ID (the first 12 hex digits of the SHA-256 of its signature) that `list --group`, `show` and `paths` \
            take, or any unique prefix of it. With --reports, every stored report is listed, newest first; with \
            --group, the reports of one group. With --project, only the crashes of one project: the same crash in two \
            projects is a group in each. Examples:

              crashtrail list
              crashtrail list --reports --format json
              crashtrail list --group 3f2a
              crashtrail list --project android
              crashtrail list --app com.example.piratebay --app-version 3.2.0 \\
                --since 2026-11-01 --limit 10
            """
    )

    @Flag(name: .long, help: "List the reports instead of the crash groups.")
    var reports = false

    @Option(name: .long, help: ArgumentHelp("List the reports of one crash group: its ID or a unique prefix of it.", valueName: "id"))
    var group: String?

    @OptionGroup var filterOptions: FilterOptions

    @Option(name: .long, help: ArgumentHelp("List at most this many groups or reports, the first in list order.", valueName: "n"))
    var limit: Int?

    @OptionGroup var output: OutputOptions
    @OptionGroup var projectOptions: ProjectReadOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a count of 1 or more, for example --limit 20") }
    }

    func run() throws {
        let filter = filterOptions.filter
        let text = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false).reading(
                projectNamed: projectOptions.project)
            if reports || group != nil {
                let list = try service.reports(filter, group: group, limit: limit)
                if output.isJSON { return CanonicalJSON.string(of: .array(list.map(ListingText.jsonValue(ofReport:)))) }
                return list.isEmpty && filter != .all ? ListingText.noMatch : ListingText.text(ofReports: list)
            }
            let groups = try service.groups(filter, limit: limit)
            if output.isJSON { return CanonicalJSON.string(of: .array(groups.map(\.jsonValue))) }
            return groups.isEmpty && filter != .all ? ListingText.noMatch : ListingText.text(ofGroups: groups)
        }
        print(text)
    }
}
