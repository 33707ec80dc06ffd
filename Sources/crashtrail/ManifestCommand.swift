import ArgumentParser

/// The `manifest` command: check manifests, or keep them in the store.
struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Work with an app's route manifest.",
        discussion: """
              crashtrail manifest check Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail manifest add Samples/PirateBay/Sources/PirateBay/piratebay.yml
            """,
        subcommands: [ManifestCheckCommand.self, ManifestAddCommand.self]
    )
}
