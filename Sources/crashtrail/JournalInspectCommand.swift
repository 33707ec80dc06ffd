import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import Foundation

/// `crashtrail journal inspect`: a journal's header, steps and damage, for people.
struct JournalInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a journal's app, session, limits, step counts and any damage.",
        discussion: """
            Exit 0 when the journal could be read (damaged or not: the damage is shown), 1 when nothing in it \
            can be recovered.

              crashtrail journal inspect session.ctj
            """
    )

    @Argument(help: "The journal file.")
    var journal: String

    func run() async throws {
        do {
            let recovered = try TrailJournal.recover(at: URL(fileURLWithPath: journal))
            print(Self.text(of: recovered, name: journal), terminator: "")
        } catch {
            printFailure(error)
            throw ExitCode.failure
        }
    }

    static func text(of recovered: RecoveredJournal, name: String) -> String {
        let trail = recovered.trail
        let top = trail.final?.topDestination
        var lines = [
            "Journal \(name)",
            "  app        \(trail.app.bundleID) \(trail.app.version) (\(trail.app.build))",
            "  session    \(trail.session.id), pid \(trail.session.pid), started \(trail.session.started)",
            "  manifest   \(recovered.manifest.app), dictionary \(ManifestDictionary(manifest: recovered.manifest).idString)",
            "  limits     \(recovered.limits.maximumSteps) steps, \(recovered.limits.maximumBytes) bytes of step JSON",
            "  size       \(recovered.fileSize) bytes: a \(recovered.headerSize)-byte header and \(recovered.records) intact \(recovered.records == 1 ? "record" : "records")",
            "  steps      \(trail.steps.count) kept, \(trail.dropped) let go before them (folded into the base)",
            "  last step  " + (trail.steps.last.map { "t = \($0.t) ms, \($0.op.name)" } ?? "none"),
            "  top screen " + (top.map { CanonicalJSON.string(of: $0.jsonValue) } ?? "none"),
        ]
        if let damage = recovered.damage {
            lines.append("  damage     \(damage)")
        } else {
            lines.append("  damage     none: every byte was recovered")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
