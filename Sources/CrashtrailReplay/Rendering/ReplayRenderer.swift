public import CrashtrailCore

/// Turns a ``Replay`` into the text of one output format.
///
/// Pure: it returns the whole output, ending with a newline when it is not empty, and never prints.
///
/// ```swift
/// let output = ReplayRenderer.render(replay, as: .json)
/// ```
public enum ReplayRenderer {
    /// The screens of `state` as `replay`'s text shows its final screens: the tab bar with each stack, the modals over
    /// them, the conditions and the pending destination, under a `Final screens` heading.
    /// - Parameters:
    ///   - state: the state to show.
    ///   - options: colour, as for `text`.
    /// - Returns: the lines, each ending with a newline.
    public static func screens(of state: NavigationState, options: RenderOptions = RenderOptions()) -> String {
        TextReplayRenderer(colour: options.colour).finalScreens(state).map { $0 + "\n" }.joined()
    }

    /// Renders `replay` as `format`.
    /// - Parameters:
    ///   - replay: the replay to render.
    ///   - format: the output format.
    ///   - options: colour and pause settings.
    /// - Returns: the complete output.
    public static func render(_ replay: Replay, as format: ReplayFormat, options: RenderOptions = RenderOptions()) -> String {
        switch format {
        case .json: JSONReplayRenderer.render(replay)
        case .text: TextReplayRenderer(colour: options.colour).render(replay)
        case .urls: replay.links.urls.map { $0 + "\n" }.joined()
        case .simctl: SimctlScriptRenderer(pause: options.pause).render(replay)
        case .xcuitest: XCUITestRenderer.render(replay)
        case .html: HTMLReplayRenderer.render(replay)
        }
    }
}
