import ArgumentParser
import CrashtrailCore
import CrashtrailService
import Foundation

/// The `symbols add` command: debug files stored, and the reports waiting for them symbolicated.
struct SymbolsAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Store debug files, and symbolicate the stored crashes that were waiting for them.",
        discussion: """
            Takes dSYM bundles, folders (searched), .zip archives as Xcode and App Store Connect give them, and Mach-O \
            files, thin or universal. Each architecture slice is stored by its UUID, in the store itself, so every \
            machine sharing the store symbolicates with it; the same slice again is a duplicate. A file that is no \
            Mach-O, or a damaged one, is refused by name and the rest goes on; the command then exits 1. The stored \
            reports whose frames name a new UUID are derived again and move to their new groups; a run killed midway \
            leaves the rest for the next run. Examples:

              crashtrail symbols add build/Release-iphoneos/PirateBay.app.dSYM
              crashtrail symbols add ~/Library/Developer/Xcode/Archives/2026-11-20/PirateBay.xcarchive/dSYMs
              crashtrail symbols add appDsyms.zip --format json
            """
    )

    @Argument(help: "dSYM bundles, folders, .zip archives and Mach-O files.")
    var paths: [String]

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The project whose crashes these debug files symbolicate, by ID or name (crashtrail project list). Needed when the store has several projects.",
            valueName: "project"))
    var project: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var quietOptions: QuietOptions

    func run() throws {
        let progress = ProgressLine(quiet: quietOptions.quiet || output.isJSON)
        let printsLines = !quietOptions.quiet && !output.isJSON
        let result = try reportingFailure {
            try TriageService(location: storeOptions.location, creating: true).addSymbols(paths, project: project) { event in
                switch event {
                case .slice(let slice) where printsLines: print(SymbolsText.line(slice))
                case .refused(let name, let reason) where printsLines: printError("refused \(name): \(reason)")
                case .rederived(let done, let total): progress.show("Symbolicating stored reports: \(done) of \(total)")
                default: break
                }
            }
        }
        progress.finish()
        if output.isJSON {
            print(CanonicalJSON.string(of: SymbolsText.json(result)))
        } else if !quietOptions.quiet {
            print(SymbolsText.summary(result))
        }
        if !result.refused.isEmpty { throw ExitCode.failure }
    }
}
