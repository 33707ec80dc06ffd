import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailRecording
import CrashtrailService
import Foundation

/// `crashtrail journal recover`: the trail of a journal's durable steps.
struct JournalRecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Print the trail a journal holds, as canonical JSON, ct1: text or binary.",
        discussion: """
            The trail's final is the state after the last durable step; its session names the process that \
            recorded it, so it joins that process's crash report. A damaged journal gives every step before the \
            damage, with a note on standard error saying what was dropped (exit 0); a journal with nothing \
            recoverable (not a journal, a damaged header, a newer format) exits 1 with the reason. The journal \
            keeps its manifest, so none is needed; --manifest adds manifests for the encoded forms.

              crashtrail journal recover session.ctj
              crashtrail journal recover session.ctj --format binary > session.ctr

            The binary form is the sidecar an .ips crash report is joined to.

            --ending writes how the session ended in the trail's session (SPEC section 20): exited when the app \
            ended it (journal record ends it at the end of its input), crashed with --crashed (the crash reporter \
            says the last run crashed), else killed. --sample-rate R (0 < R <= 1) adds the share of such sessions \
            the app sends, as the trail of a session that did not crash is sent to POST /api/ID/trails:

              crashtrail journal recover session.ctj --sample-rate 0.1 \\
                --format binary > session.ctr
            """
    )

    @Argument(help: "The journal file.")
    var journal: String

    @OptionGroup var manifests: ManifestOptions

    @Option(help: "The form to write the trail in: json (canonical trail JSON), ct1 (text), keys (split keys) or binary.")
    var format: TrailOutputForm = .json

    @Flag(help: "Write how the session ended (crashed, killed or exited) in the trail's session.")
    var ending = false

    @Flag(help: "The crash reporter says the session crashed: with --ending, the trail says crashed.")
    var crashed = false

    @Option(help: "With the ending, the share (0 < R <= 1) of sessions that did not crash the app sends, e.g. 0.1.")
    var sampleRate: Double?

    func validate() throws {
        if let sampleRate, Trail.SampleRate(sampleRate) == nil {
            throw ValidationError("--sample-rate is \(sampleRate); it must be above 0 and at most 1, e.g. 0.1")
        }
        if format == .binary, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("binary output would go to the terminal; redirect it (> session.ctr) or use --format ct1")
        }
    }

    func run() throws {
        try reportingFailure {
            let recovered = try TrailJournal.recover(at: URL(fileURLWithPath: journal))
            if let damage = recovered.damage {
                printError(
                    "note: \(journal): recovered \(recovered.records) \(recovered.records == 1 ? "record" : "records"); \(damage)")
            }
            let codec = TrailCodec(manifests: try manifests.load().map(\.manifest) + [recovered.manifest])
            var trail = recovered.trail
            if ending || sampleRate != nil {
                trail.session.ended = recovered.ending(crashReported: crashed)
                trail.session.sampleRate = sampleRate.flatMap(Trail.SampleRate.init)
            }
            writeStandardOutput(try format.bytes(of: trail, codec: codec))
        }
    }
}
