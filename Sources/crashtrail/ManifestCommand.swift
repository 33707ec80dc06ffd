import ArgumentParser
import CrashtrailCore
import Foundation

/// `crashtrail manifest check FILE…`
struct ManifestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Work with an app's route manifest.",
        subcommands: [Check.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check that a manifest can work, and summarize it.",
            discussion: """
                Refuses a manifest that cannot work with the file, line, destination and problem, and exits
                with status 1. Example:

                  crashtrail manifest check Samples/PirateBay/Sources/PirateBay/piratebay.yml
                """
        )

        @Argument(help: "Manifest files (YAML or JSON).")
        var files: [String]

        func run() async throws {
            var failed = false
            for file in files {
                do {
                    let manifest = try Manifest(contentsOfFile: file)
                    let linked = manifest.destinations.filter { $0.route != nil }.count
                    print(
                        "\(file): ok: \(manifest.app), \(manifest.destinations.count) destinations (\(linked) with a URL), "
                            + "\(manifest.conditions.count) conditions, "
                            + (manifest.hasTabs ? "tabs \(manifest.tabs.joined(separator: ", "))" : "root \(manifest.root ?? "")"))
                } catch {
                    failed = true
                    printError("Error: \(error)")
                }
            }
            if failed { throw ExitCode.failure }
        }
    }
}
