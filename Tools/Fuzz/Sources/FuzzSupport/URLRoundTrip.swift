import CrashtrailCore

/// Checks the routing invariants (SPEC section 3) for one URL.
///
/// Every URL must keep them under `manifest`:
///
/// - a URL that resolves to a destination has a URL for that destination (`url(for:)` is not nil);
/// - that URL resolves to the same destination;
/// - and its URL is itself (the printed form is a fixed point).
///
/// A broken invariant stops the fuzzer.
/// - Parameters:
///   - url: any text.
///   - manifest: the route table.
public func checkURLRoundTrip(_ url: String, in manifest: Manifest) {
    guard let destination = manifest.destination(forURL: url) else { return }
    guard let printed = manifest.url(for: destination) else {
        fuzzRequire(false, "\(url) resolves to \(destination) but url(for:) gives no URL for it")
        return
    }
    let again = manifest.destination(forURL: printed)
    fuzzRequire(again == destination, "\(url) resolves to \(destination); its URL \(printed) resolves to \(String(describing: again))")
    if let again {
        let reprinted = manifest.url(for: again)
        fuzzRequire(reprinted == printed, "url(for:) of \(again) is \(String(describing: reprinted)), not the fixed point \(printed)")
    }
}
