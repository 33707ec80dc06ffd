import ArgumentParser
import CrashtrailCore
import CrashtrailReports
import CrashtrailService
import CrashtrailStore
import Foundation

/// `crashtrail grouping`: the grouping rules a store keeps, in Sentry's syntax.
struct GroupingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grouping",
        abstract: "Set, show and check the rules that group crashes, in Sentry's fingerprint and stack-trace rule syntax.",
        discussion: """
            One file holds both kinds of rule, one a line, as Sentry writes them: a fingerprint rule \
            (MATCHERS -> FINGERPRINT) names the group of the crashes it matches; a stack-trace rule (MATCHERS \
            ACTIONS, with +app, -app, +group, -group) says which frames are the app's and which the signature \
            names. Rules are kept per project (--project) or for the whole store; setting them derives the stored \
            reports again so every report follows them. docs/GROUPING.md has the syntax. Examples:

              crashtrail grouping check rules.txt
              crashtrail grouping set rules.txt
              crashtrail grouping set ios-rules.txt --project ios-app
              crashtrail grouping show
            """,
        subcommands: [GroupingSetCommand.self, GroupingShowCommand.self, GroupingCheckCommand.self]
    )
}

/// `--project`: the project whose rules or merges a command changes.
struct GroupingProjectOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A project's ID or name (crashtrail project list): the rules apply to the reports crashtrail serve received for it. Without it, the store-wide rules, for every other report.",
            valueName: "project"))
    var project: String?
}

/// Reads a rules file, or standard input for `-`.
func readRulesFile(_ path: String) throws -> String {
    if path == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("cannot read the rules file \(path): no such file, or not readable")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw ValidationError("the rules file \(path) is not UTF-8 text") }
    return text
}

/// `crashtrail grouping set FILE`.
struct GroupingSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Keep a rules file as the grouping rules, and regroup the stored reports by them.",
        discussion: """
            The file is checked first: a mistake is named by line and column, and nothing is kept. An empty file \
            removes the rules. The stored reports the rules apply to are derived again and move to their new \
            groups; a running crashtrail serve applies the new rules within 5 seconds, without a restart. Examples:

              crashtrail grouping set rules.txt
              crashtrail grouping set rules.txt --project ios-app
            """)

    @Argument(help: "The rules file, or - for standard input.")
    var file: String

    @OptionGroup var projectOptions: GroupingProjectOptions
    @OptionGroup var quietOptions: QuietOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let text = try readRulesFile(file)
        let progress = ProgressLine(quiet: quietOptions.quiet)
        let change = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: true).setGroupingRules(
                text, file: file == "-" ? nil : file, project: projectOptions.project
            ) { done, total in progress.show("\(done)/\(total) reports regrouped") }
        }
        progress.finish()
        for note in change.notes { printError("Note: \(note)") }
        guard !quietOptions.quiet else { return }
        let owner = change.project.map { "project \($0.id) (\($0.name))" } ?? "the store"
        let kept = text.allSatisfy(\.isWhitespace) ? "Removed the grouping rules of \(owner)" : "Kept the grouping rules of \(owner)"
        print(
            "\(kept); \(counted(change.reprocessed.examined, "report")) derived again, \(counted(change.reprocessed.changed, "report")) regrouped."
        )
    }
}

/// `crashtrail grouping show`.
struct GroupingShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print the grouping rules kept, as written, and the merges.")

    @OptionGroup var projectOptions: GroupingProjectOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let (rules, merges) = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
            let project = try service.project(named: projectOptions.project)
            return (
                try service.groupingRules(project: projectOptions.project),
                try service.groupMerges().filter { $0.project == ProjectScope(project) }
            )
        }
        if let rules {
            print(rules, terminator: rules.hasSuffix("\n") ? "" : "\n")
        } else {
            print(
                "# No grouping rules are kept\(projectOptions.project.map { " for \($0)" } ?? ""): crashes are grouped by their default signature."
            )
        }
        for merge in merges {
            print("# merged: \(CrashGroup.id(ofSignature: merge.signature)) into \(CrashGroup.id(ofSignature: merge.into)) (\(merge.time))")
        }
    }
}

/// `crashtrail grouping check FILE`.
struct GroupingCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a rules file without keeping it: its first mistake, by line and column, or how many rules it has.",
        discussion: """
            Exits 1 with FILE:LINE:COLUMN and what was expected there when the file is not Sentry's rule syntax. \
            Example:

              crashtrail grouping check rules.txt
            """)

    @Argument(help: "The rules file, or - for standard input.")
    var file: String

    func run() throws {
        let text = try readRulesFile(file)
        let rules = try reportingFailure { try GroupingRules(parsing: text, file: file == "-" ? nil : file) }
        for note in rules.notes { printError("Note: \(note)") }
        print(
            "\(file): \(counted(rules.fingerprintRules.count, "fingerprint rule")) and \(counted(rules.stackTraceRules.count, "stack-trace rule")), no mistakes."
        )
    }
}
