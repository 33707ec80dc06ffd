import ArgumentParser
import CrashtrailCore
import CrashtrailService
import CrashtrailStore

/// `crashtrail group`: changes to crash groups by hand.
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Merge crash groups by hand.",
        subcommands: [GroupMergeCommand.self]
    )
}

/// `crashtrail group merge GROUP GROUP…`.
struct GroupMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge crash groups into the first one named: one bug, one group.",
        discussion: """
            Groups are named by their ID or a unique prefix of it (crashtrail list). The merge is kept as a rule, \
            so it holds for reports that arrive later and after crashtrail reprocess; the first group keeps its ID \
            and its page lists the signatures merged into it. Examples:

              crashtrail group merge 1f2e3d4c5b6a 9a8b7c6d5e4f
              crashtrail group merge 1f2e 9a8b 77aa --project ios-app
            """)

    @Argument(help: "Two or more group IDs or unique prefixes; the first keeps its ID.")
    var groups: [String]

    @OptionGroup var projectOptions: GroupingProjectOptions
    @OptionGroup var quietOptions: QuietOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard groups.count >= 2 else { throw ValidationError("name two or more groups: crashtrail group merge GROUP GROUP…") }
    }

    func run() throws {
        let progress = ProgressLine(quiet: quietOptions.quiet)
        let (into, merged, change) = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: false).mergeGroups(groups, project: projectOptions.project) {
                done, total in progress.show("\(done)/\(total) reports regrouped")
            }
        }
        progress.finish()
        guard !quietOptions.quiet else { return }
        let ids = merged.map { CrashGroup.id(ofSignature: $0) }.joined(separator: ", ")
        print(
            "Merged \(counted(merged.count, "group")) (\(ids)) into \(CrashGroup.id(ofSignature: into)); \(counted(change.reprocessed.changed, "report")) moved."
        )
    }
}
