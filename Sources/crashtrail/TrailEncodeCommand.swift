import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import Foundation

/// `crashtrail trail encode`: a trail in its compact form.
struct TrailEncodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode a trail as ct1: text (the default), split keys or binary.",
        discussion: """
            The input may be trail JSON or any encoded form. With the app's manifest the trail is smaller: the \
            encoding then names the manifest's dictionary id, and decoding needs the same manifest. Text is \
            for JSON fields and custom keys, keys is a JSON object {"crashtrail.0": …} whose values each fit \
            --key-limit characters (Crashlytics allows 1,024), binary is for attachments and files.

              crashtrail trail encode trail.json \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail trail encode trail.json --to keys --key-limit 1024
              crashtrail trail encode trail.json --to binary > trail.ctr
            """
    )

    /// The form `--to` asks for.
    enum Form: String, ExpressibleByArgument, CaseIterable {
        case text
        case keys
        case binary
    }

    @OptionGroup var input: TrailInputOptions

    @Option(help: "The form to write: text (ct1:), keys (split JSON object) or binary.")
    var to: Form = .text

    @Option(help: "The most characters each split key's value may have (with --to keys).")
    var keyLimit: Int = 1024

    func validate() throws {
        guard keyLimit >= 32 else {
            throw ValidationError(
                "--key-limit must be at least 32 characters so a part fits its header and data, for example --key-limit 1024")
        }
        if to == .binary, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("binary output would go to the terminal; redirect it (> trail.ctr) or use --to text")
        }
    }

    func run() async throws {
        let codec = try input.codec()
        let trail = try input.decode(with: codec)
        if !codec.dictionaries.isEmpty, codec.dictionary(for: trail) == nil {
            printError(
                "warning: no given manifest is for \(trail.app.bundleID); encoding without a dictionary, so the trail is larger")
        }
        let form: TrailForm =
            switch to {
            case .text: .text
            case .keys: .keys(limit: keyLimit)
            case .binary: .binary
            }
        let encoded: [UInt8]
        do {
            encoded = try codec.encode(trail, as: form)
        } catch {
            throw TrailFileError(input.inputName, error.description)
        }
        writeStandardOutput(to == .binary ? encoded : encoded + [UInt8(ascii: "\n")])
    }
}
