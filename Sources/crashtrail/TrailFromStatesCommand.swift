import ArgumentParser
import CrashtrailCore
import CrashtrailRecording
import Foundation

/// `crashtrail trail from-states`: a trail from the navigation states an app reported (SPEC section 11).
struct TrailFromStatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-states",
        abstract: "Make a trail from the navigation states an app showed, one observation a line.",
        discussion: """
            For apps that keep their own navigation (SwiftUI paths, UIKit controllers): each line of the input is \\
            {"t": MS, "state": STATE}, t in milliseconds since the session started, increasing, and STATE a \\
            navigation state as trails write it. The trail's base is the first state (absent when it is the \\
            launch state), its final the last, and each change becomes the fewest push, pop, popToRoot, select, \\
            present, dismiss, satisfy and revoke steps that reach it, spaced so that no modal transition is \\
            dropped. The trail is printed as canonical JSON. Example:

              crashtrail trail from-states observations.ndjson \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml --app-version 3.1.0
            """
    )

    @Argument(help: "The observations, one JSON object a line. Absent or - reads standard input.")
    var file: String?

    @Option(name: .customLong("manifest"), help: "The app's route manifest (YAML or JSON).")
    var manifestPath: String

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

    func run() async throws {
        do {
            let manifest = try Manifest(contentsOfFile: manifestPath)
            let data: Data
            if let file, file != "-" {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw ValidationError("cannot read \(file); check that it exists and is readable")
                }
                data = contents
            } else {
                data = FileHandle.standardInput.readDataToEndOfFile()
            }
            let trail = try Self.trail(
                fromLines: Array(data), manifest: manifest, app: Trail.AppInfo(bundleID: manifest.app, version: appVersion, build: build),
                session: Trail.Session(id: session, started: started, pid: pid), source: file ?? "standard input")
            print(String(decoding: trail.canonicalJSON, as: UTF8.self))
        } catch {
            printError("Error: \(error)")
            throw ExitCode.failure
        }
    }

    struct LineError: Error, CustomStringConvertible {
        var description: String
    }

    /// The trail the observations in `bytes` make.
    /// - Throws: `LineError` naming the source and line.
    static func trail(fromLines bytes: [UInt8], manifest: Manifest, app: Trail.AppInfo, session: Trail.Session, source: String) throws -> Trail {
        var diff: ObservedStateDiff?
        var base: NavigationState?
        var last: NavigationState?
        var previous: Int64 = 0
        var steps: [Step] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> LineError { LineError(description: "\(source), line \(number): \(message)") }
            guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(line))
            } catch {
                throw fail("not JSON: \(error)")
            }
            guard let object = value.objectValue, Set(object.keys) == ["t", "state"], let t = object["t"]?.intValue, let stateValue = object["state"] else {
                throw fail("an observation is exactly {\"t\": MS, \"state\": STATE}, t an integer")
            }
            let state: NavigationState
            do {
                state = try NavigationState(jsonValue: stateValue, path: "state")
            } catch {
                throw fail("the state is not valid: \(error)")
            }
            do {
                if var current = diff {
                    steps += try current.steps(to: state, at: t, after: previous)
                    diff = current
                } else {
                    guard t >= 0 else { throw fail("t is \(t); times count milliseconds since the session started") }
                    diff = try ObservedStateDiff(manifest: manifest, first: state)
                    base = state
                }
            } catch let error as ObservedStateError {
                throw fail(error.message)
            }
            previous = t
            last = state
        }
        guard let base else { throw LineError(description: "\(source): no observation; give one {\"t\": MS, \"state\": STATE} a line") }
        return Trail(app: app, session: session, base: base == manifest.launchState ? nil : base, steps: steps, final: last)
    }
}
