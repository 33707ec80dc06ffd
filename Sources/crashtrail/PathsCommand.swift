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

    @OptionGroup var output: OutputOptions
    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if group != nil, groupArgument != nil { throw ValidationError("give the group once, with --group") }
    }

    func run() throws {
        let result = try reportingFailure {
            let service = try TriageService(location: storeOptions.location, creating: false)
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
}
