import ArgumentParser
import CrashtrailCore
import CrashtrailService

/// The `symbols list` command: the stored debug files, or the images still waiting for one.
struct SymbolsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stored debug files, or with --missing the images stored crashes still wait for.",
        discussion: """
            With --missing: each image of the app's own code that stored reports' frames name and no debug file \
            describes, with its UUID, name, the app versions of those reports and how many wait, the most awaited \
            first. Upload those dSYMs (crashtrail symbols add) and the waiting reports are symbolicated. Examples:

              crashtrail symbols list
              crashtrail symbols list --missing --format json
            """
    )

    @Flag(name: .long, help: "List the images stored reports still wait for, instead of the stored debug files.")
    var missing = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let service = try reportingFailure { try TriageService(location: storeOptions.location, creating: false) }
        if missing {
            let images = try reportingFailure { try service.missingDebugFiles() }
            print(output.isJSON ? CanonicalJSON.string(of: SymbolsText.json(images)) : SymbolsText.table(images))
        } else {
            let files = try reportingFailure { try service.debugFiles() }
            print(output.isJSON ? CanonicalJSON.string(of: SymbolsText.json(files)) : SymbolsText.table(files))
        }
    }
}
