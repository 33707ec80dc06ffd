/// The output formats of a replay (SPEC section 9).
public enum ReplayFormat: String, Hashable, Sendable, CaseIterable {
    /// One canonical JSON object: the contract.
    case json
    /// For people: the step table, the final screens, verification, links and anomalies.
    case text
    /// The shortest links, one a line.
    case urls
    /// A runnable bash script that opens the links on the booted simulator.
    case simctl
    /// A Swift XCTest method that opens the links in order.
    case xcuitest
    /// One self-contained HTML page: the timeline, the crash-time screens and the links with copy buttons.
    case html

    /// The file extension golden files of this format use.
    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .text: "txt"
        case .urls: "urls.txt"
        case .simctl: "sh"
        case .xcuitest: "swift"
        case .html: "html"
        }
    }
}
