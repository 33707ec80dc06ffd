import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReplay
import Foundation

/// `crashtrail replay REPORT`: how the user got here, and which links take a simulator there.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a crash's navigation trail and print the shortest links that reproduce its screens.",
        discussion: """
            REPORT is a trail file (JSON, ct1: text or binary), a crash payload file, or a stored report ID \
            (any unique prefix). Every step is applied to a headless Navigator; the output shows the path, the \
            crash-time screens, whether they match what the app recorded, the shortest deep links that rebuild \
            them from launch, and any anomalies. Formats: text (for people), json (the contract), urls (one a \
            line), simctl (a bash script for the booted simulator) and xcuitest (a Swift XCTest method).

              crashtrail replay Samples/trails-golden/trails/checkout-crash.json \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail replay 4d1fe12f --format simctl --pause 3 > reproduce.sh

            A manifest of another app than the trail's is refused (exit 1) unless --force is given.
            """
    )

    @Argument(help: "A trail file, a crash payload file, or a stored report ID (any unique prefix).")
    var report: String

    @Option(
        name: .customLong("manifest"),
        help:
            "The app's route manifest (YAML or JSON), or a folder of them. Repeat for several apps; the one whose app is the trail's bundle ID is used. Without it, the manifests the store keeps."
    )
    var manifests: [String] = []

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The output format: text, json, urls, simctl or xcuitest.")
    var format: ReplayFormat = .text

    @Option(help: "Seconds the simctl script waits between links.")
    var pause: Double = 2

    @Flag(help: "Replay with the manifest given even when it is another app's (its rules and links will rarely fit).")
    var force = false

    func validate() throws {
        guard pause.isFinite, pause >= 0, pause <= 3600 else {
            throw ValidationError("--pause takes a number of seconds from 0 to 3600, for example --pause 2 or --pause 0.5")
        }
    }

    func run() async throws {
        let manifests = try ManifestFiles.given(self.manifests, orStoredIn: storeOptions.resolvedPath(), for: "replay")
        let source = try ReplaySource.resolve(report, manifests: manifests, storePath: storeOptions.resolvedPath())
        let app = source.trail.app.bundleID
        let selection = try ManifestSelection(choosingFrom: manifests, forApp: app)
        guard selection.manifest.app == app || force else {
            printError(
                "Error: the trail is from \(app), but the manifest \(selection.manifest.source) is for \(selection.manifest.app); "
                    + "pass the manifest of \(app) with --manifest, or add --force to replay with this one anyway")
            throw ExitCode.failure
        }
        for warning in selection.warnings { printError(warning) }
        let chosen = ManifestDictionary(manifest: selection.manifest).idString
        if let recorded = source.recordedDictionaryID, recorded != chosen {
            let known = manifests.first { ManifestDictionary(manifest: $0).idString == recorded }
            printError(
                "warning: the trail was recorded with another version of the manifest (dictionary ID \(recorded)) than "
                    + "\(selection.manifest.source) (\(chosen)); routes may differ, so the replay and its links may not match the app"
                    + (known.map { "; \($0.source) is that version" } ?? ""))
        }
        let replay = Replayer(manifest: selection.manifest).replay(source.trail, report: source.name)
        let options = RenderOptions(colour: format == .text && Self.wantsColour(), pause: pause)
        print(ReplayRenderer.render(replay, as: format, options: options), terminator: "")
    }

    /// Colour on a terminal, never with `NO_COLOR` set (no-color.org) or when the output is piped.
    static func wantsColour() -> Bool {
        if let noColour = ProcessInfo.processInfo.environment["NO_COLOR"], !noColour.isEmpty { return false }
        return isatty(STDOUT_FILENO) != 0
    }
}
