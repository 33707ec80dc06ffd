import ArgumentParser
import CrashtrailCore
import CrashtrailService

/// The `manifest check` command: whether manifests can work (`crashtrail manifest check FILE…`).
struct ManifestCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that manifests can work, and summarize them.",
        discussion: """
            Refuses a manifest that cannot work with the file, line, destination and problem, and exits with \
            status 1. A manifest that works is summarized with its dictionary ID, the ID an encoded trail names \
            when it needs this manifest to decode. With --format json, one array with an object per manifest \
            (file, ok, and app, dictionaryID, destinations, linked, conditions, tabs and root, or error). Examples:

              crashtrail manifest check Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail manifest check manifests/ --format json
            """
    )

    @Argument(help: "Manifest files (YAML or JSON), or folders of them.")
    var files: [String]

    @OptionGroup var output: OutputOptions

    func run() throws {
        let checks = ManifestSummary.check(files)
        if output.isJSON {
            print(CanonicalJSON.string(of: .array(checks.map(\.jsonValue))))
        } else {
            for check in checks {
                if let text = check.text { print(text) } else { printError("Error: \(check.error ?? "")") }
            }
        }
        if checks.contains(where: { $0.error != nil }) { throw ExitCode.failure }
    }
}
