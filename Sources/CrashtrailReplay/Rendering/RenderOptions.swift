/// How a replay is rendered, beyond its format.
public struct RenderOptions: Hashable, Sendable {
    /// Whether `text` output uses ANSI colour.
    ///
    /// The CLI turns it on for a terminal without `NO_COLOR`.
    public var colour: Bool
    /// Seconds the `simctl` script sleeps between links.
    public var pause: Double

    /// Options for a render.
    /// - Parameters:
    ///   - colour: ANSI colour in `text` output (default off).
    ///   - pause: seconds between links in the `simctl` script (default 2).
    public init(colour: Bool = false, pause: Double = 2) {
        self.colour = colour
        self.pause = pause
    }
}
