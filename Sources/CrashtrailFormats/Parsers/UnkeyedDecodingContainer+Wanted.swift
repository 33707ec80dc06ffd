extension UnkeyedDecodingContainer {
    /// The elements that `isWanted` accepts by their `Probe` (a key or two of each), each then decoded whole; the
    /// others are read no further than the probe, and an element that does not decode is skipped.
    ///
    /// A report lists dozens or hundreds of binary images and its frames name a few: reading only those keeps ingest
    /// from paying for the rest.
    mutating func decodeElements<Element: Decodable, Probe: Decodable>(
        _ type: Element.Type, probing probe: Probe.Type, where isWanted: (Probe) -> Bool
    ) -> [Element] {
        var elements: [Element] = []
        while !isAtEnd {
            guard let element = try? superDecoder() else { break }
            guard let probed = try? Probe(from: element), isWanted(probed), let whole = try? Element(from: element) else { continue }
            elements.append(whole)
        }
        return elements
    }
}
