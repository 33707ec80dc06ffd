import ArgumentParser
import CrashtrailCore
import CrashtrailRecording
import CrashtrailService
import Foundation

/// `crashtrail journal record`: steps from standard input into a journal, each line number printed once durable.
struct JournalRecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record steps from standard input into a journal, printing each line's number once it is durable.",
        discussion: """
            Standard input holds one JSON step a line, as trails write steps ({"t": MS, "op": "push", "to": …}, t \
            never decreasing). Each is recorded through the recorder, with its limits and redaction, into \
            JOURNAL (replaced if it exists); once the step is in the file, its zero-based line number is printed \
            on standard output. A line that is not a valid step stops the command with exit status 1, naming the \
            line; the steps before it stay in the journal. Example:

              printf '%s\\n' '{"t":100,"op":"select","tab":1}' '{"t":900,"op":"push","to":{"item":{"id":"L-42"}}}' |
                crashtrail journal record session.ctj \\
                  --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml --app-version 3.1.0
            """
    )

    @Argument(help: "The journal file to write (replaced if it exists).")
    var journal: String

    @OptionGroup var manifests: ManifestOptions

    @Option(name: .customLong("app-version"), help: "The app version the trail names.")
    var appVersion = ""

    @Option(help: "The app build the trail names.")
    var build = ""

    @Option(help: "The session ID (a UUID); a new one when absent.")
    var session: String?

    @Option(
        help: ArgumentHelp(
            "The file holding the install's redaction key, created with a new random key when missing; without it, a random key for this run. Values the manifest marks redact are replaced by stand-ins keyed by it.",
            valueName: "file"))
    var redactionKey: String?

    @Option(help: "The most steps the recorder keeps; older ones are folded into the trail's base.")
    var maxSteps = TrailRecorder.Limits().maximumSteps

    @Option(help: "The most bytes of step JSON the recorder keeps.")
    var maxBytes = TrailRecorder.Limits().maximumBytes

    func validate() throws {
        if let session, UUID(uuidString: session) == nil {
            throw ValidationError("--session must be a UUID, such as 9C0A4E61-2B7D-4F3A-8D1E-5A6B7C8D9E0F; got \(session)")
        }
        guard maxSteps >= 0, maxBytes >= 0 else { throw ValidationError("--max-steps and --max-bytes cannot be negative") }
    }

    func run() async throws {
        let manifest = try reportingFailure { try LoadedManifest.loadOne(manifests.paths) }
        do {
            try await MainActor.run { try record(manifest: manifest) }
        } catch {
            _ = try reportingFailure { throw error }
        }
    }

    @MainActor
    private func record(manifest: Manifest) throws {
        let app = Trail.AppInfo(bundleID: manifest.app, version: appVersion, build: build)
        let session = Trail.Session(
            id: (session ?? UUID().uuidString).uppercased(),
            started: Timestamp.rfc3339(milliseconds: Int64(Date().timeIntervalSince1970) * 1000), pid: Int64(getpid()))
        let key = try redactionKey.map { try RedactionKey.loadOrCreate(at: URL(fileURLWithPath: $0)) }
        let recorder = TrailRecorder(
            manifest: manifest, app: app, session: session, limits: .init(maximumSteps: maxSteps, maximumBytes: maxBytes), redactionKey: key
        )
        try recorder.startJournal(at: URL(fileURLWithPath: journal))
        try JournalRecording(recorder: recorder, journal: journal).record(
            lines: { readLine(strippingNewline: true) }, durable: { writeStandardOutput(Array("\($0)\n".utf8)) })
    }
}
