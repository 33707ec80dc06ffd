extension Manifest {
    /// The deep link of `destination`, or nil when the manifest does not know it, it has no template, or a
    /// value its template needs is missing or of the wrong kind.
    public func url(for destination: Destination) -> String? {
        guard let index = rules.index(named: destination.name) else { return nil }
        return destinations[index].route?.url(for: destination.payload)
    }

    /// The destination a deep link names, or nil when it matches no template.
    ///
    /// When several match, the one
    /// with more literal parts wins, then manifest order.
    public func destination(forURL url: String) -> Destination? {
        guard let parsed = ParsedURL(url) else { return nil }
        return routeIndex.destination(for: parsed)
    }
}
