@_spi(Fuzzing) import CrashtrailFormats
import CrashtrailReports
import CrashtrailStore
import FuzzDriver
import FuzzSupport

/// Fuzzes each format's parser on its own, past detection.
///
/// The first byte picks the format (its value modulo the number of formats, in `ReportFormat.allCases` order), the rest
/// is the payload. Every payload is parsed or refused with a `RejectionError`; an accepted one yields at least one
/// payload of that format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let selector = bytes.first else { return 0 }
    let formats = ReportFormat.allCases
    let format = formats[Int(selector) % formats.count]
    let payload = UnsafeBufferPointer(rebasing: bytes.dropFirst())
    _ = try? FormatParsing.detect(payload)
    guard let parsed = try? FormatParsing.parse(payload, as: format) else { return 0 }
    fuzzRequire(!parsed.isEmpty, "\(format) accepted a payload but returned nothing")
    for range in parsed {
        if let range {
            fuzzRequire(range.lowerBound >= 0 && range.upperBound <= payload.count, "identity range \(range) outside the payload")
        }
    }
    return 0
}

@main
enum PayloadFormatsFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
