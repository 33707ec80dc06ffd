import CrashtrailCore
import CrashtrailEncoding
@_spi(Fuzzing) import CrashtrailFormats
@_spi(Fuzzing) import CrashtrailIntake
import CrashtrailStore
import FuzzDriver
import FuzzSupport

let codec = TrailCodec(manifests: FuzzManifests.all)

/// Fuzzes a whole input as `crashtrail ingest` sees it (SPEC sections 7 and 8).
///
/// Detection, the format's parser, the embedded trail, signature, hash and compression. Every input ends as records or
/// rejections, never a crash;
/// each outcome names its source and every record has an ID.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let (outcomes, inputs) = FormatParsing.process(bytes, decoder: codec, line: false)
    fuzzRequire(inputs >= 1 || outcomes.isEmpty, "\(outcomes.count) outcomes from \(inputs) inputs")
    for outcome in outcomes {
        switch outcome {
        case .record(let id, let sha256):
            fuzzRequire(!id.isEmpty, "a stored record without an ID")
            fuzzRequire(sha256.utf8.count == 64, "a record whose sha256 is \(sha256)")
        case .rejected(let message):
            fuzzRequire(!message.isEmpty, "a rejection without a message")
        case .skipped(let count):
            fuzzRequire(count > 0, "a skip of no diagnostics")
        }
    }
    _ = FormatParsing.process(bytes, decoder: codec, line: true)
    return 0
}

@main
enum PayloadFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
