import CrashtrailCore
import FuzzDriver
import FuzzSupport

/// Deep links (SPEC section 3). The first byte picks the case:
/// - even: the rest is a URL, resolved against both fuzz manifests;
/// - odd: the rest is `TEMPLATE\nURL`; a one-destination manifest is built around the template (when it is
///   one) and the URL resolved against it.
/// Either way every URL round trip (``checkURLRoundTrip(_:in:)``) must hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let mode = bytes.first else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    if mode % 2 == 0 {
        for manifest in FuzzManifests.all { checkURLRoundTrip(text, in: manifest) }
        return 0
    }
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let template = String(parts[0])
    let url = parts.count > 1 ? String(parts[1]) : ""
    let json = CanonicalJSON.string(
        of: .object([
            "app": .string("fuzz"), "root": .string("start"),
            "destinations": .object(["start": .object([:]), "target": .object(["url": .string(template)])]),
        ]))
    guard let manifest = try? Manifest(yaml: json, source: "fuzz.json") else { return 0 }
    checkURLRoundTrip(url, in: manifest)
    return 0
}

@main
enum URLFuzzer {
    static func main() { runLibFuzzer(fuzz) }
}
