extension Navigator {
    /// Pushes an app's own `Codable` destination (an enum case with synthesized `Codable`).
    /// - Throws: `DestinationError` when the value does not encode as a destination (e.g. a fractional number).
    @discardableResult
    public func push(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        push(try Destination(encoding: destination))
    }

    /// Presents an app's own `Codable` destination modally.
    @discardableResult
    public func present(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        present(try Destination(encoding: destination))
    }

    /// Opens an app's own `Codable` destination with its manifest presentation.
    @discardableResult
    public func open(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        open(try Destination(encoding: destination))
    }

    /// The screen on top, decoded as the app's own destination type; nil when nothing decodes.
    public func topDestination<D: Decodable>(as type: D.Type) -> D? {
        try? state.topDestination?.decoded(as: type)
    }
}
