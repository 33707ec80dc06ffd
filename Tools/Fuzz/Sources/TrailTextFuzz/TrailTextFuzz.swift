import CrashtrailCore
import CrashtrailEncoding
import FuzzDriver
import FuzzSupport

let codec = TrailCodec(manifests: FuzzManifests.all)

/// Fuzzes the `ct1:` text (SPEC section 6).
///
/// Any text is refused with a `TrailCodecError` or decodes to a trail that
/// encodes again and decodes to the same canonical JSON. Form detection over the bytes must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let detected = try? codec.decode(bytes)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    guard let trail = try? codec.decode(text: text) else { return 0 }
    checkCodecRoundTrip(trail, codec: codec)
    if text.utf8.first == UInt8(ascii: "c") {
        fuzzRequire(detected == trail, "decode(_:) does not read ct1: text that decode(text:) reads")
    }
    return 0
}

@main
enum TrailTextFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
