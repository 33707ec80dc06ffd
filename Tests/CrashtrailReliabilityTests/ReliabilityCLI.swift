import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// Runs `crashtrail` for the reliability tests, and reads `ingest --json` summaries.
enum ReliabilityCLI {
    static let runner = CommandRunner.locate()

    /// The built executable, or a test failure saying it was not built.
    static func require() throws -> CommandRunner {
        try #require(runner, "the crashtrail executable was not built next to the test bundle")
    }

    /// Runs `crashtrail ingest INPUTS --store … --quarantine … --json --quiet` in `folder` and returns the
    /// result and its summary.
    static func ingest(
        _ inputs: [String], store: URL, quarantine: URL, in folder: URL, extra: [String] = []
    ) throws -> (result: CommandRunner.Result, summary: [String: JSONValue]) {
        let result = try require().run(
            ["ingest"] + inputs + ["--store", store.path, "--quarantine", quarantine.path, "--json", "--quiet"] + extra,
            directory: folder)
        let summary = (try? JSONParser.parse(result.stdout))?.objectValue ?? [:]
        return (result, summary)
    }

    /// An integer field of a summary (0 when absent).
    static func count(_ summary: [String: JSONValue], _ key: String) -> Int {
        if case .int(let value) = summary[key] { return Int(value) }
        return 0
    }

    /// Whether a process ended by a signal (a crash): `Process` reports those as status 128+ in our runner.
    static func describe(_ result: CommandRunner.Result) -> String {
        "status \(result.status)\nstdout: \(result.stdout.prefix(2000))\nstderr: \(result.stderr.prefix(2000))"
    }
}
