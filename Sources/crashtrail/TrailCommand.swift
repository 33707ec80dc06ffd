import ArgumentParser

/// `crashtrail trail`: move trails between their JSON form and the compact encoded forms.
struct TrailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trail",
        abstract: "Encode, decode and inspect navigation trails (JSON, ct1: text, split keys, binary).",
        discussion: """
            A trail rides with a crash in little room. encode makes the compact form (ct1: text by default), \
            decode turns any form back into the trail's canonical JSON, and inspect shows the format version, \
            the manifest dictionary, the step count and the sizes.

              crashtrail trail encode trail.json \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
              crashtrail trail decode trail.ct1 \\
                --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml
            """,
        subcommands: [TrailEncodeCommand.self, TrailDecodeCommand.self, TrailInspectCommand.self, TrailFromStatesCommand.self]
    )
}
