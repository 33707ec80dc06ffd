import ArgumentParser
import CrashtrailService

/// The `manifest add` command: manifests kept in the store (`crashtrail manifest add FILE…`).
struct ManifestAddCommand: ParsableCommand {
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

    func run() throws {
        let addition = try reportingFailure {
            let loaded = try LoadedManifest.load(files)
            return try TriageService(location: storeOptions.location, creating: true).addManifests(loaded)
        }
        for entry in addition.entries {
            print(
                "\(entry.manifest.source): \(entry.isNew ? "added" : "already stored"): \(entry.manifest.app), dictionary ID \(entry.dictionaryID)"
            )
        }
        guard addition.added > 0 else { return }
        print(
            addition.decodedLater == 1
                ? "1 stored report's trail is decoded now." : "\(addition.decodedLater) stored reports' trails are decoded now.")
    }
}
