extension Navigator {
    /// Pushes an app's own `Codable` destination (an enum case with synthesized `Codable`), converted with
    /// ``Destination/init(encoding:)``: its payload may hold strings, integers, booleans, `Double`, `Date`, `UUID`,
    /// `URL`, enums with raw values and nested `Codable` structs.
    /// - Throws: `DestinationError` naming the coding path when the value does not encode as a destination (NaN or an
    ///   infinite number, an integer beyond `Int64.max`, a date outside the years 0000 to 9999).
    @discardableResult
    public func push(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        push(try Destination(encoding: destination))
    }

    /// Presents an app's own `Codable` destination modally.
    /// - Throws: `DestinationError` naming the coding path when the value does not encode as a destination.
    @discardableResult
    public func present(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        present(try Destination(encoding: destination))
    }

    /// Opens an app's own `Codable` destination with its manifest presentation.
    /// - Throws: `DestinationError` naming the coding path when the value does not encode as a destination.
    @discardableResult
    public func open(_ destination: some Encodable) throws(DestinationError) -> [NavigationAnomaly] {
        open(try Destination(encoding: destination))
    }

    /// The screen on top, decoded as the app's own destination type; nil when nothing decodes.
    public func topDestination<D: Decodable>(as type: D.Type) -> D? {
        try? state.topDestination?.decoded(as: type)
    }
}
