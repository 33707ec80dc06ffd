import ArgumentParser
import CrashtrailCore
import CrashtrailEncoding

/// `crashtrail trail decode`: any form back to the trail's canonical JSON.
struct TrailDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a trail in any form (binary, ct1: text, split keys, JSON) to its canonical JSON.",
        discussion: """
            The form is detected. A trail encoded with a manifest needs that manifest: pass it, or a folder of \
            manifests, and the one the trail names is used; if it is missing the error says which id it needs.

              crashtrail trail decode trail.ctr \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              echo 'ct1:x1QC…' | crashtrail trail decode --manifest manifests/
            """
    )

    @OptionGroup var input: TrailInputOptions

    func run() throws {
        let codec = try input.codec()
        let trail = try input.read().decode(with: codec)
        print(trail.canonicalJSONString)
    }
}
