import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailService
import Foundation

/// `crashtrail trail encode`: a trail in its compact form.
struct TrailEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a trail as ct1: text (the default), split keys or binary.",
        discussion: """
            The input may be trail JSON or any encoded form. With the app's manifest the trail is smaller: the \
            encoding then names the manifest's dictionary id, and decoding needs the same manifest. ct1 (text) is \
            for JSON fields and custom keys, keys is a JSON object {"crashtrail.0": …} whose values each fit \
            --key-limit characters (Crashlytics allows 1,024), binary is for attachments and files.

              crashtrail trail encode trail.json \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail trail encode trail.json --format keys --key-limit 1024
              crashtrail trail encode trail.json --format binary
            """
    )

    @OptionGroup var input: TrailInputOptions

    @Option(help: "The form to write: ct1 (text), keys (a split JSON object), binary, or json (canonical trail JSON).")
    var format: TrailOutputForm?

    /// The old spelling of `--format`.
    @Option(name: .customLong("to"), help: .hidden)
    var legacyForm: TrailOutputForm?

    /// The form to write.
    var form: TrailOutputForm { format ?? legacyForm ?? .ct1 }

    @Option(help: "The most characters each split key's value may have (with --format keys).")
    var keyLimit: Int = 1024

    func validate() throws {
        guard keyLimit >= 32 else {
            throw ValidationError(
                "--key-limit must be at least 32 characters so a part fits its header and data, for example --key-limit 1024")
        }
        if format != nil, legacyForm != nil { throw ValidationError("give --format once (--to is its old name)") }
        if form == .binary, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("binary output would go to the terminal; redirect it (> trail.ctr) or use --format ct1")
        }
    }

    func run() throws {
        let codec = try input.codec()
        let file = try input.read()
        let trail = try file.decode(with: codec)
        if !codec.dictionaries.isEmpty, codec.dictionary(for: trail) == nil {
            printError(
                "warning: no given manifest is for \(trail.app.bundleID); encoding without a dictionary, so the trail is larger")
        }
        writeStandardOutput(try file.naming { () throws(TrailCodecError) in try form.bytes(of: trail, codec: codec, keyLimit: keyLimit) })
    }
}
