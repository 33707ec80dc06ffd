import ArgumentParser
import CrashtrailCollector
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// `crashtrail manifest check FILE…`, `crashtrail manifest add FILE…`
struct ManifestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Work with an app's route manifest.",
        subcommands: [Check.self, Add.self]
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

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Keep manifests in the crash store, and decode the stored trails that were waiting for them.",
            discussion: """
                The store keeps every manifest by its dictionary ID, so replay and paths need no --manifest for \
                stored reports. A trail stored before its manifest was known (undecodable: the manifest it needs \
                was not given) is decoded from its report's payload as soon as the manifest is added. ingest \
                --manifest keeps its manifests the same way. Example:

                  crashtrail manifest add Samples/PirateBay/Sources/PirateBay/piratebay.yml
                """
        )

        @Argument(help: "Manifest files (YAML or JSON), or folders of them.")
        var files: [String]

        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            do {
                let loaded = try ManifestFiles.loadWithText(files)
                let store = try storeOptions.open()
                var added = 0
                for manifest in loaded {
                    let new = try store.addManifest(manifest.manifest, text: manifest.text)
                    if new { added += 1 }
                    let id = ManifestDictionary(manifest: manifest.manifest).idString
                    print("\(manifest.manifest.source): \(new ? "added" : "already stored"): \(manifest.manifest.app), dictionary ID \(id)")
                }
                guard added > 0 else { return }
                let decoded = try store.decodePendingTrails(with: TrailCodec(manifests: try store.storedManifests()))
                print(
                    decoded == 1
                        ? "1 stored report's trail is decoded now." : "\(decoded) stored reports' trails are decoded now.")
            } catch {
                printError("Error: \(error)")
                throw ExitCode.failure
            }
        }
    }
}
