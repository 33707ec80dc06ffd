import Mustache

/// HTML escaping by Unicode scalar, registered with swift-mustache as the `HTML_SCALARS` content type.
///
/// swift-mustache's own HTML type escapes by `Character`, so a quote followed by a combining mark (one
/// `Character`) would pass unescaped and close an attribute. Every template of the pages sets
/// `{{% CONTENT_TYPE: HTML_SCALARS}}`, so every `{{value}}` is escaped here.
struct ScalarHTMLContentType: MustacheContentType {
    static let name = "HTML_SCALARS"

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    static func escape(_ text: String) -> String {
        // Most values need nothing: a byte scan finds out without building a new string.
        let needsWork = text.utf8.contains { byte in
            byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<")
                || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`")
        }
        guard needsWork else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "`": out.append(contentsOf: "&#96;".unicodeScalars)
            default:
                // Control characters other than tab and newline have no place in text; show them as U+FFFD.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) {
                    out.append("\u{FFFD}")
                } else {
                    out.append(scalar)
                }
            }
        }
        return String(out)
    }

    /// Registers the content type once.
    static let registered: Void = {
        MustacheContentTypes.register(ScalarHTMLContentType(), named: name)
    }()
}
