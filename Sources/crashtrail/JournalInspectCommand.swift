import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import CrashtrailService
import Foundation

/// `crashtrail journal inspect`: a journal's header, steps and damage, for people.
struct JournalInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a journal's app, session, limits, step counts and any damage.",
        discussion: """
            Exit 0 when the journal could be read (damaged or not: the damage is shown), 1 when nothing in it \
            can be recovered.

              crashtrail journal inspect session.ctj
              crashtrail journal inspect session.ctj --format json
            """
    )

    @Argument(help: "The journal file.")
    var journal: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let recovered = try reportingFailure { try TrailJournal.recover(at: URL(fileURLWithPath: journal)) }
        if output.isJSON {
            print(CanonicalJSON.string(of: JournalText.jsonValue(of: recovered, name: journal)))
        } else {
            print(JournalText.text(of: recovered, name: journal), terminator: "")
        }
    }
}
