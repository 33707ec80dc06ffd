/// ANSI styling for `text` output, or none at all.
struct TextStyle {
    let colour: Bool

    enum Tone: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    /// `text` wrapped in the tone's escape codes when colour is on.
    func apply(_ tone: Tone, _ text: String) -> String {
        guard colour, !text.isEmpty else { return text }
        return "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m"
    }
}
