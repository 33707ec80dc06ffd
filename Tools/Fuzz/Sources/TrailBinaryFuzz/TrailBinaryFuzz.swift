import CrashtrailCore
import CrashtrailEncoding
import FuzzDriver
import FuzzSupport

let codec = TrailCodec(manifests: FuzzManifests.all)

/// Fuzzes the binary trail (SPEC section 6).
///
/// Any bytes are refused with a `TrailCodecError` or decode to a trail
/// that encodes again and decodes to the same canonical JSON. Form detection (`decode(_:)`) must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let trail: Trail
    do {
        trail = try codec.decodeBinary(bytes)
    } catch {
        _ = try? codec.decode(bytes)
        return 0
    }
    checkCodecRoundTrip(trail, codec: codec)
    let detected = try? codec.decode(bytes)
    fuzzRequire(detected == trail, "decode(_:) does not detect a binary trail that decodeBinary(_:) reads")
    return 0
}

@main
enum TrailBinaryFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
