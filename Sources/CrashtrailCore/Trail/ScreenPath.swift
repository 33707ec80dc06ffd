/// A trail's screen path (SPEC section 13): the destination name on top of the screen after each replayed step,
/// starting with the top of `base` (or of the launch state), with consecutive repeats collapsed.
package enum ScreenPath {
    /// The screen path of `trail`, replayed with `manifest`'s rules.
    package static func names(of trail: Trail, manifest: Manifest) -> [String] {
        var engine = NavigationEngine(manifest: manifest, state: trail.base)
        var names: [String] = []
        func visit(_ state: NavigationState) {
            guard let top = state.topDestination?.name, top != names.last else { return }
            names.append(top)
        }
        visit(engine.state)
        for step in trail.steps {
            engine.apply(step)
            visit(engine.state)
        }
        return names
    }

    /// How many of a path's last screens a store keeps with each report, so `paths` reads them instead of replaying.
    package static let storedCount = 16

    /// The fingerprint of a manifest's canonical document (``Manifest/documentText``), as 16 lower-case hex digits.
    ///
    /// It is the 64-bit FNV-1a hash of the document's bytes. Any change to the manifest's app, tabs, root, transition,
    /// conditions or destinations gives another, so a path stored with one fingerprint is the path a manifest with the
    /// same one gives.
    static func fingerprint(ofDocument documentText: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in documentText.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The last `count` screens of a path, ending with the screen at the crash.
    package static func lastScreens(_ names: [String], count: Int) -> [String] {
        Array(names.suffix(max(0, count)))
    }
}
