import CrashtrailCore
import CrashtrailEncoding

/// Checks the codec invariants (SPEC section 6) for a trail some decoder accepted.
///
/// It encodes in every form, and each
/// form decodes to the same canonical JSON. A broken invariant stops the fuzzer.
/// - Parameters:
///   - trail: a decoded trail.
///   - codec: the codec that decoded it.
public func checkCodecRoundTrip(_ trail: Trail, codec: TrailCodec) {
    let canonical = trail.canonicalJSON
    do {
        let binary = try codec.encodeBinary(trail)
        let fromBinary = try codec.decodeBinary(binary).canonicalJSON
        fuzzRequire(fromBinary == canonical, "binary round trip changes the trail")
        let fromText = try codec.decode(text: try codec.encodeText(trail)).canonicalJSON
        fuzzRequire(fromText == canonical, "ct1: round trip changes the trail")
        let fromKeys = try codec.decode(keys: try codec.encodeKeys(trail, limit: 64)).canonicalJSON
        fuzzRequire(fromKeys == canonical, "split-keys round trip changes the trail")
        let fromJSON = try codec.decode(canonical).canonicalJSON
        fuzzRequire(fromJSON == canonical, "trail JSON does not decode to itself")
    } catch {
        fuzzRequire(false, "a decoded trail does not survive encoding and decoding again: \(error)")
    }
}
