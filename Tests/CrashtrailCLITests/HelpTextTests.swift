import CrashtrailTestSupport
import Foundation
import Testing

/// Every command's `--help` at 80 columns: examples that paste (never wrapped mid-command) and each default said once.
@Suite("Help text")
struct HelpTextTests {
    static let commands: [[String]] = [
        [], ["ingest"], ["replay"], ["list"], ["show"], ["paths"], ["trail"], ["trail", "encode"], ["trail", "decode"],
        ["trail", "inspect"], ["trail", "from-states"], ["manifest"], ["manifest", "check"], ["manifest", "add"], ["store"],
        ["store", "copy"], ["reprocess"], ["report"], ["journal"], ["journal", "record"], ["journal", "recover"], ["journal", "inspect"],
        ["serve"], ["project"], ["project", "add"], ["project", "list"], ["project", "revoke"],
    ]

    @Test("Examples fit 80 columns and continue with a backslash; no option says its default twice", arguments: commands)
    func helpPastes(command: [String]) throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let result = try runner.run(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("  crashtrail ") || line.hasPrefix("    --") {
            #expect(line.count <= 80, "\(command): \(line)")
            // A wrapped example would go on at the start of the next line.
            if index + 1 < lines.count, let next = lines[index + 1].first {
                #expect(next == " ", "\(command): an example is wrapped after \"\(line)\"")
            }
            if line.hasSuffix("\\") { #expect(lines[index + 1].hasPrefix("    --"), "\(command): \"\(line)\" continues with an option") }
        }
        // An option whose help says its default must not get ArgumentParser's "(default: …)" too.
        let options = result.stdout.components(separatedBy: "\n  --")
        for option in options.dropFirst() {
            let text = option.replacingOccurrences(of: "\n", with: " ")
            let saysDefault = text.range(of: "Defaults to") != nil || text.range(of: "(default ") != nil
            #expect(!(saysDefault && text.contains("(default:")), "\(command): --\(option.prefix(40))… says its default twice")
        }
    }
}
