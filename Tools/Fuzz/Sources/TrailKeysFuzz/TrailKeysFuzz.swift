import CrashtrailCore
import CrashtrailEncoding
import FuzzDriver
import FuzzSupport

let codec = TrailCodec(manifests: FuzzManifests.all)

/// The split keys (SPEC section 6): a JSON object of `crashtrail.N` parts is refused with a
/// `TrailCodecError` (missing, repeated, reordered, foreign or invalid part, then any binary error) or decodes
/// to a trail that encodes again and decodes to the same canonical JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    _ = try? codec.decode(bytes)
    guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return 0 }
    let keys = object.compactMapValues(\.stringValue)
    guard let trail = try? codec.decode(keys: keys) else { return 0 }
    checkCodecRoundTrip(trail, codec: codec)
    return 0
}

@main
enum TrailKeysFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
