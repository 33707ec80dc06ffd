import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
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
                Refuses a manifest that cannot work with the file, line, destination and problem, and exits \
                with status 1. A manifest that works is summarized with its dictionary ID, the ID an encoded \
                trail names when it needs this manifest to decode. Example:

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
                    let dictionary = ManifestDictionary(manifest: manifest)
                    print(
                        "\(file): ok: \(manifest.app), dictionary ID \(dictionary.idString), "
                            + "\(Self.count(manifest.destinations.count, "destination")) (\(linked) with a URL), "
                            + "\(Self.count(manifest.conditions.count, "condition")), "
                            + (manifest.hasTabs ? "tabs \(manifest.tabs.joined(separator: ", "))" : "root \(manifest.root ?? "")"))
                } catch {
                    failed = true
                    printError("Error: \(error)")
                }
            }
            if failed { throw ExitCode.failure }
        }

        /// `1 destination`, `2 destinations`.
        static func count(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
    }
}
