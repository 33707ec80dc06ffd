import ArgumentParser
import Foundation
import Testing

@testable import crashtrail

/// Every help screen's examples parse: each `crashtrail …` line (with its `\` continuations) names known
/// subcommands and options with valid values.
///
/// A validation that needs the example's files is not a parse failure.
@Suite("Help examples")
struct HelpExampleTests {
    /// Every command, as its path of subcommand types.
    static func commands(_ root: any ParsableCommand.Type = Crashtrail.self) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    /// The example command lines of a help text, as arguments after `crashtrail`.
    static func examples(in help: String) -> [[String]] {
        var examples: [[String]] = []
        var current: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let continued = current {
                current = continued + " " + trimmed
            } else if trimmed.hasPrefix("crashtrail ") {
                current = String(trimmed.dropFirst("crashtrail ".count))
            }
            guard var text = current else { continue }
            if text.hasSuffix("\\") {
                text.removeLast()
                current = text
                continue
            }
            // Shell redirections, pipes and comments are not arguments.
            for cut in [" > ", " < ", " | ", "  #"] { if let range = text.range(of: cut) { text = String(text[..<range.lowerBound]) } }
            examples.append(text.split(separator: " ").map(String.init))
            current = nil
        }
        return examples
    }

    @Test("Every example of every help screen parses")
    func examplesParse() {
        var count = 0
        for command in Self.commands() {
            let help = Crashtrail.helpMessage(for: command, columns: 200)
            for example in Self.examples(in: help) where !example.isEmpty && !example[0].hasPrefix("…") {
                count += 1
                do {
                    _ = try Crashtrail.parseAsRoot(example)
                } catch {
                    let message = Crashtrail.message(for: error)
                    let structural = [
                        "Unknown option", "Unexpected argument", "Missing expected argument", "is not a valid", "Missing value",
                    ]
                    #expect(
                        !structural.contains { message.contains($0) },
                        "\(command.configuration.commandName ?? ""): crashtrail \(example.joined(separator: " ")): \(message)")
                }
            }
        }
        #expect(count >= 30, "the help screens hold \(count) examples")
    }

    @Test("Help value lists come from the enums: replay names every format")
    func replayFormats() {
        let help = Crashtrail.helpMessage(for: ReplayCommand.self, columns: 200)
        for format in ["text", "json", "urls", "simctl", "xcuitest", "html"] { #expect(help.contains(format), "\(format)") }
    }

    @Test("No help screen prints a stray backslash in its prose")
    func noStrayBackslash() {
        for command in Self.commands() {
            let help = Crashtrail.helpMessage(for: command, columns: 200)
            for line in help.split(separator: "\n") where line.hasSuffix("\\") {
                #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("crashtrail ") || line.contains("--"), "\(command): \(line)")
            }
            #expect(!help.contains("\\ "), "\(command) has a stray backslash")
        }
    }
}
