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
        var failed = false
        var results: [JSONValue] = []
        for file in files {
            do {
                for loaded in try LoadedManifest.load([file]) {
                    let manifest = loaded.manifest
                    results.append(ManifestSummary.jsonValue(of: manifest))
                    if !output.isJSON { print(ManifestSummary.text(of: manifest)) }
                }
            } catch {
                failed = true
                results.append(.object(["file": .string(file), "ok": .bool(false), "error": .string("\(error)")]))
                if !output.isJSON { printError("Error: \(error)") }
            }
        }
        if output.isJSON { print(CanonicalJSON.string(of: .array(results))) }
        if failed { throw ExitCode.failure }
    }
}
