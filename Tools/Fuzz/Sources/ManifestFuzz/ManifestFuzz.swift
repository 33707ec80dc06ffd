@_spi(Fuzzing) import CrashtrailCore
import FuzzDriver
import FuzzSupport

/// Manifest loading (SPEC section 3): any text is refused with a `ManifestError` or loads; in a loaded
/// manifest every destination whose template has no placeholder has a URL, that URL resolves to some
/// destination, and every URL round trip holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    guard let manifest = try? Manifest(yaml: text, source: "fuzz.yml") else { return 0 }
    _ = manifest.launchState
    for spec in manifest.destinations {
        guard let route = spec.literalRoute else { continue }
        guard let url = manifest.url(for: Destination(spec.name)) else {
            fuzzRequire(false, "\(spec.name) has the literal template \(route) but no URL")
            continue
        }
        fuzzRequire(manifest.destination(forURL: url) != nil, "the URL \(url) of \(spec.name) resolves to nothing")
        checkURLRoundTrip(url, in: manifest)
    }
    return 0
}

@main
enum ManifestFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
