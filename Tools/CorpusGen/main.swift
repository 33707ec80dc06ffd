import CrashtrailCore
import CrashtrailEncoding
import CrashtrailTestSupport
import Foundation

// crashtrail-corpus: generates crash payloads of the five formats with trails that replay on the PirateBay
// manifest.
//
//   crashtrail-corpus samples [OUT]                           the committed samples (OUT defaults to Samples)
//   crashtrail-corpus corpus OUT --count N [--seed S]         a realistic mixed corpus for the ingest benchmark
//   crashtrail-corpus waiting OUT --count N [--seed S]        trails whose crashes never come (Tools/waiting-bench.sh)

let usage = """
    usage: crashtrail-corpus samples [OUT] [--manifest M]
           crashtrail-corpus corpus OUT --count N [--seed S] [--manifest M]
           crashtrail-corpus waiting OUT --count N [--seed S] [--manifest M]
    """

var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
}
let manifestPath = option("--manifest", in: &arguments) ?? "Samples/PirateBay/Sources/PirateBay/piratebay.yml"
let count = option("--count", in: &arguments).flatMap(Int.init)
let seed = option("--seed", in: &arguments).flatMap(UInt64.init) ?? 42

do {
    let manifest = try Manifest(contentsOfFile: manifestPath)
    let generator = CorpusGenerator(manifest: manifest, codec: TrailCodec(manifests: [manifest]), seed: seed)
    switch arguments.first {
    case "samples":
        try generator.writeSamples(to: URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "Samples"))
    case "corpus":
        guard arguments.count > 1, let count, count > 0 else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        let stats = try generator.writeCorpus(to: URL(fileURLWithPath: arguments[1]), count: count)
        print(stats)
    case "waiting":
        guard arguments.count > 1, let count, count > 0 else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        print(try generator.writeWaitingTrails(to: URL(fileURLWithPath: arguments[1]), count: count))
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
