import ArgumentParser
import CrashtrailCore
import CrashtrailRecording
import CrashtrailService
import Foundation

/// `crashtrail trail from-states`: a trail from the navigation states an app reported (SPEC section 11).
struct TrailFromStatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-states",
        abstract: "Make a trail from the navigation states an app showed, one observation a line.",
        discussion: """
            For apps that keep their own navigation (SwiftUI paths, UIKit controllers): each line of the input is \
            {"t": MS, "state": STATE}, t in milliseconds since the session started, increasing, and STATE a \
            navigation state as trails write it. The trail's base is the first state (absent when it is the \
            launch state), its final the last, and each change becomes the fewest push, pop, popToRoot, select, \
            present, dismiss, satisfy and revoke steps that reach it, spaced so that no modal transition is \
            dropped. The trail is printed as canonical JSON. Example:

              crashtrail trail from-states observations.ndjson \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml \\
                --app-version 3.1.0
            """
    )

    @Argument(help: "The observations, one JSON object a line. Absent or - reads standard input.")
    var file: String?

    @OptionGroup var manifests: ManifestOptions

    @Option(name: .customLong("app-version"), help: "The app version the trail names.")
    var appVersion = ""

    @Option(help: "The app build the trail names.")
    var build = ""

    @Option(help: "The session ID the trail names (a UUID).")
    var session = "00000000-0000-0000-0000-000000000000"

    @Option(help: "When the session started, RFC 3339.")
    var started = "1970-01-01T00:00:00Z"

    @Option(help: "The process ID the trail names.")
    var pid: Int64 = 0

    func run() throws {
        try reportingFailure {
            let manifest = try LoadedManifest.loadOne(manifests.paths)
            let input = try TrailInput.read(file)
            let trail = try ObservationLog.trail(
                fromLines: input.bytes, manifest: manifest, app: Trail.AppInfo(bundleID: manifest.app, version: appVersion, build: build),
                session: Trail.Session(id: session, started: started, pid: pid), source: input.name)
            print(String(decoding: trail.canonicalJSON, as: UTF8.self))
        }
    }
}
