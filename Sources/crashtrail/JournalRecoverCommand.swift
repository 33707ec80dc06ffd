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
              crashtrail journal recover session.ctj --format binary > session.ctr     # a sidecar for the .ips
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, ct1, binary

        /// `text` names ct1 too, as in `trail encode`.
        init?(argument: String) {
            self.init(rawValue: argument == "text" ? "ct1" : argument)
        }
    }

    @Argument(help: "The journal file.")
    var journal: String

    @OptionGroup var manifests: ManifestOptions

    @Option(help: "The output: json (canonical trail JSON), ct1 (text) or binary.")
    var format: Format = .json

    func validate() throws {
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
            switch format {
            case .json:
                writeStandardOutput(recovered.trail.canonicalJSON + [UInt8(ascii: "\n")])
            case .ct1:
                writeStandardOutput(Array(try codec.encodeText(recovered.trail).utf8) + [UInt8(ascii: "\n")])
            case .binary:
                writeStandardOutput(try codec.encodeBinary(recovered.trail))
            }
        }
    }
}
