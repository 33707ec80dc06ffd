import ArgumentParser
import CrashtrailService

/// `--manifest`: route manifests, files or folders, in every command that takes them.
struct ManifestOptions: ParsableArguments {
    @Option(
        name: .customLong("manifest"),
        help: ArgumentHelp(
            "An app's route manifest (YAML or JSON), or a folder of them. Repeat for several apps; each trail uses its app's. Commands on stored reports use the manifests the store keeps when none is given.",
            valueName: "file-or-folder"))
    var paths: [String] = []

    /// The manifests given, with their text.
    /// - Throws: `ManifestError` naming the path.
    func load() throws -> [LoadedManifest] { try LoadedManifest.load(paths) }
}
