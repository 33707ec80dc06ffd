import CrashtrailCore
import FuzzDriver
import FuzzSupport

/// Trail JSON (SPEC section 5): any bytes are refused with a `TrailError` or accepted; an accepted trail's
/// canonical JSON parses back to the same trail and prints the same bytes again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let trail = try? Trail(json: bytes) else { return 0 }
    let canonical = trail.canonicalJSON
    do {
        let again = try Trail(json: canonical)
        fuzzRequire(again == trail, "the canonical JSON of an accepted trail parses to a different trail")
        fuzzRequire(again.canonicalJSON == canonical, "canonical JSON is not stable")
    } catch {
        fuzzRequire(false, "the canonical JSON of an accepted trail is refused: \(error)")
    }
    return 0
}

@main
enum TrailJSONFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
