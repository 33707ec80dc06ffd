import ArgumentParser
import CrashtrailEncoding
import CrashtrailService

/// The input of `crashtrail trail` subcommands: a file or standard input, and the manifests.
struct TrailInputOptions: ParsableArguments {
    @Argument(help: "The trail file in any form (JSON, ct1: text, split keys, binary). Absent or - reads standard input.")
    var file: String?

    @OptionGroup var manifests: ManifestOptions

    /// A codec that knows the manifests.
    func codec() throws -> TrailCodec {
        TrailCodec(manifests: try manifests.load().map(\.manifest))
    }

    /// The input, read whole.
    func read() throws -> TrailInput { try TrailInput.read(file) }
}
