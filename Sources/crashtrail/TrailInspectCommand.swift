import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding
import CrashtrailService

/// `crashtrail trail inspect`: what an encoded trail holds and how small it is.
struct TrailInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an encoded trail's format version, form, dictionary, step count and sizes.",
        discussion: """
            The ratio is the binary form's size over the trail's canonical JSON. Given trail JSON, inspect shows \
            what encoding it would give. Each given manifest's dictionary id is listed too, so a trail that \
            needs a missing manifest can be matched to one.

              crashtrail trail inspect trail.ct1 \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail trail inspect trail.ctr --format json
            """
    )

    @OptionGroup var input: TrailInputOptions

    @OptionGroup var output: OutputOptions

    func run() throws {
        let codec = try input.codec()
        let file = try input.read()
        let inspection = try file.naming { () throws(TrailCodecError) in try codec.inspect(file.bytes) }
        if output.isJSON {
            print(CanonicalJSON.string(of: inspection.jsonValue))
            return
        }
        print(inspection.text)
        for dictionary in codec.dictionaries {
            print("manifest:        \(dictionary.idString) \(dictionary.manifest.app) (\(dictionary.manifest.source))")
        }
    }
}
