import ArgumentParser
import CrashtrailCore
import CrashtrailReplay
import CrashtrailService
import Foundation

/// `crashtrail replay REPORT`: how the user got here, and which links take a simulator there.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a crash's navigation trail and print the shortest links that reproduce its screens.",
        discussion: """
            REPORT is a trail file (JSON, ct1: text or binary), a crash payload file, or a stored report ID \
            (any unique prefix). Every step is applied to a headless Navigator; the output shows the path, the \
            crash-time screens, whether they match what the app recorded, the shortest deep links that rebuild \
            them from launch, and any anomalies. Formats: \(ReplayFormat.allCases.map(\.rawValue).joined(separator: ", ")) \
            (text for people, json the contract, urls one a line, simctl a bash script for the booted simulator, \
            xcuitest a Swift XCTest method, html one self-contained page).

              crashtrail replay Samples/trails-golden/trails/checkout-crash.json \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail replay 4d1fe12f --format simctl --pause 3

            A manifest of another app than the trail's is refused (exit 1) unless --force is given.
            """
    )

    @Argument(help: "A trail file, a crash payload file, or a stored report ID (any unique prefix).")
    var report: String

    @OptionGroup var manifests: ManifestOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The output format.")
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

    func run() throws {
        let outcome = try reportingFailure {
            try ReplayOperation.replay(report, manifests: try manifests.load(), location: storeOptions.location, force: force)
        }
        for warning in outcome.warnings { printError(warning) }
        let options = RenderOptions(colour: format == .text && Self.wantsColour(), pause: pause)
        print(ReplayRenderer.render(outcome.replay, as: format, options: options), terminator: "")
    }

    /// Colour on a terminal, never with `NO_COLOR` set (no-color.org) or when the output is piped.
    static func wantsColour() -> Bool {
        if let noColour = ProcessEnvironment.current()["NO_COLOR"], !noColour.isEmpty { return false }
        return isatty(STDOUT_FILENO) != 0
    }
}
