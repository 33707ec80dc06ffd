extension Manifest {
    /// A screen name without its module prefix: `ItemViewController` for `PirateBay.ItemViewController`.
    static func unprefixed(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// Each screen name of `destinations`, and each without its module prefix, to its destination's index.
    /// - Throws: `ManifestError` (`duplicate-screen`) naming both destinations when one name would name two.
    static func screenIndex(of destinations: [DestinationSpec], source: String, lines: ManifestLines) throws(ManifestError) -> [String: Int]
    {
        var index: [String: Int] = [:]
        for (position, spec) in destinations.enumerated() {
            for screen in spec.screens {
                for key in Set([screen, unprefixed(screen)]) {
                    if let other = index[key], other != position {
                        let first = destinations[other].name
                        throw ManifestError(
                            .duplicateScreen, source: source, line: lines.destinations[spec.name], destination: spec.name,
                            "the screen name \"\(key)\" names both \(first) and \(spec.name); a screen name must name one destination")
                    }
                    index[key] = position
                }
            }
        }
        return index
    }
}
