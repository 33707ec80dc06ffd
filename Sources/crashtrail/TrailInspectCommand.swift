import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding

/// `crashtrail trail inspect`: what an encoded trail holds and how small it is.
struct TrailInspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show an encoded trail's format version, form, dictionary, step count and sizes.",
        discussion: """
            The ratio is the binary form's size over the trail's canonical JSON. Given trail JSON, inspect shows \
            what encoding it would give. Each given manifest's dictionary id is listed too, so a trail that \
            needs a missing manifest can be matched to one.

              crashtrail trail inspect trail.ct1 \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail trail inspect trail.ctr --json
            """
    )

    @OptionGroup var input: TrailInputOptions

    @Flag(help: "Print one canonical JSON object instead of text.")
    var json = false

    func run() async throws {
        let codec = try input.codec()
        let bytes = try input.readInput()
        let inspection: TrailInspection
        do {
            inspection = try codec.inspect(bytes)
        } catch {
            throw TrailFileError(input.inputName, error.description)
        }
        if json {
            print(CanonicalJSON.string(of: inspection.jsonValue))
            return
        }
        let dictionary =
            inspection.dictionaryID.map { id in
                "\(id) (\(inspection.dictionaryApp ?? "?"), \(inspection.dictionarySource ?? "?"))"
            } ?? "none"
        print(
            """
            form:            \(inspection.form.rawValue)
            format version:  \(inspection.formatVersion)
            app:             \(inspection.app)
            dictionary:      \(dictionary)
            steps:           \(inspection.stepCount)
            binary:          \(inspection.binarySize) bytes (\(TrailInspection.decimal(inspection.bytesPerStep, places: 2)) bytes/step)
            ct1: text:       \(inspection.textLength) characters
            body:            \(inspection.bodySize) bytes before deflate
            canonical JSON:  \(inspection.jsonSize) bytes
            ratio:           \(TrailInspection.decimal(inspection.ratio, places: 4)) of the JSON
            """)
        for dictionary in codec.dictionaries {
            print("manifest:        \(dictionary.idString) \(dictionary.manifest.app) (\(dictionary.manifest.source))")
        }
    }
}
