import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// The README's main job and its tour, run as written (each `swift run crashtrail` line through the built
/// executable), in a temporary folder that sees the package's `Samples`.
@Suite("The README, as written")
struct ReadmeTourTests {
    /// The shell lines of the first ```sh block after `heading`.
    static func shellBlock(after heading: String, in readme: String) throws -> [String] {
        let afterHeading = try #require(readme.range(of: heading), "README has no \(heading)").upperBound
        let start = try #require(readme.range(of: "```sh\n", range: afterHeading..<readme.endIndex)).upperBound
        let end = try #require(readme.range(of: "```", range: start..<readme.endIndex)).lowerBound
        return readme[start..<end].split(separator: "\n").map(String.init)
    }

    @Test("The main job and every tour command run and exit 0")
    func tourRuns() throws {
        // Given the README and a folder where Samples is the package's
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let readme = try String(contentsOf: PackageRoot.url.appendingPathComponent("README.md"), encoding: .utf8)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("Samples"), withDestinationURL: PackageRoot.url.appendingPathComponent("Samples"))
        let lines = try Self.shellBlock(after: "## The two commands", in: readme) + Self.shellBlock(after: "## A tour", in: readme)
        var variables: [String: String] = [:]
        var ran = 0
        for line in lines {
            // A comment after two spaces and `#` is the README's, not the command's.
            var command = line.components(separatedBy: "  #").first?.trimmingCharacters(in: .whitespaces) ?? line
            if let equals = command.firstIndex(of: "="), !command.contains(" ") {
                variables[String(command[..<equals])] = String(command[command.index(after: equals)...])
                continue
            }
            for (name, value) in variables { command = command.replacingOccurrences(of: "$" + name, with: value) }
            var words = command.split(separator: " ").map(String.init)
            var redirect: String?
            if let arrow = words.firstIndex(of: ">") {
                redirect = words.count > arrow + 1 ? words[arrow + 1] : nil
                words.removeSubrange(arrow...)
            }
            try #require(Array(words.prefix(3)) == ["swift", "run", "crashtrail"], "not a crashtrail command: \(line)")
            // When it runs
            let result = try runner.run(Array(words.dropFirst(3)), directory: folder.url)
            // Then it succeeds, prints something and never waits on standard input
            #expect(result.status == 0, "\(line)\n\(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(line) printed nothing")
            if let redirect { try Data(result.stdoutBytes).write(to: folder.url.appendingPathComponent(redirect)) }
            ran += 1
        }
        #expect(ran >= 10)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("crashtrail.sqlite").path))
    }
}

@Suite("Counts in messages")
struct PluralTests {
    @Test("A second ingest of one report says so in the singular")
    func oneDuplicate() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.write(#"{"crashtrail":1,"id":"one","time":"2026-11-02T14:45:05Z"}"#, to: "in/one.json")
        _ = try runner.run(["ingest", "in"], directory: folder.url)
        let again = try runner.run(["ingest", "in"], directory: folder.url)
        #expect(again.stdout.contains("Nothing new: the one report was already stored."), "\(again.stdout)")
        #expect(!again.stdout.contains("1 reports"))
    }

    @Test("select on a one-tab bar says 1 tab")
    func oneTab() throws {
        let manifest = try Manifest(
            yaml: """
                app: x
                tabs: [home]
                destinations:
                  home: { url: "x://home" }
                """)
        var engine = NavigationEngine(manifest: manifest)
        let anomalies = engine.apply(Step(t: 0, .select(tab: 3)))
        #expect(anomalies.first?.detail.contains("the tab bar has 1 tab,") == true, "\(anomalies)")
    }
}
