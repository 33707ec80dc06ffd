import CrashtrailCore

/// The validate stage of the intake path: a whole input checked to be one JSON object, with its top-level keys.
///
/// Format detection reads the keys, and the parse is handed the structure `JSONValidator` found
/// (``ParseContext/structure``), so a single-document payload is scanned once.
package struct ValidatedObject {
    /// Where each array and object of the input ends.
    package let structure: JSONStructure
    /// The top-level keys as they are written between their quotes (escapes left as they are), as
    /// `TopLevelKeys` gives them.
    package let keys: Set<String>

    /// Validates `bytes` as one JSON text whose first byte, after whitespace, opens an object; nil when it is
    /// not (anything else: more than one document, a truncated or invalid one, another kind of value, a byte
    /// order mark), so the caller falls back to detecting the input byte by byte.
    package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress,
            let first = bytes.firstIndex(where: { !JSONBytes.isWhitespace($0) }), bytes[first] == .openBrace,
            let structure = try? JSONValidator.validate(bytes), structure.root == first
        else { return nil }
        self.structure = structure
        keys = Self.rootKeys(JSONDocument(base: base, count: bytes.count, spans: structure.spans), root: first)
    }

    /// The raw keys of the object at `root`, span 0 of a validated document.
    private static func rootKeys(_ document: JSONDocument, root: Int) -> Set<String> {
        var keys: Set<String> = []
        var nextSpan = 1
        var offset = document.skipWhitespace(from: root + 1)
        guard offset < document.count, document.base[offset] != .closeBrace else { return keys }
        while offset < document.count {
            // A validated object: a key string, a colon, a value, then a comma or the closing brace.
            let keyEnd = JSONBytes.scanString(document.base, from: offset + 1, count: document.count).end
            keys.insert(String(decoding: UnsafeBufferPointer(start: document.base + offset + 1, count: keyEnd - offset - 1), as: UTF8.self))
            offset = document.skipWhitespace(from: keyEnd + 1)  // the colon
            offset = document.skipWhitespace(from: offset + 1)
            let valueEnd: Int
            switch document.base[offset] {
            case .openBrace, .openBracket:
                valueEnd = document.spans[nextSpan].end
                nextSpan = document.spans[nextSpan].after
            default:
                valueEnd = document.end(of: JSONPosition(offset: offset, span: 0))
            }
            offset = document.skipWhitespace(from: valueEnd)
            guard offset < document.count, document.base[offset] == .comma else { break }
            offset = document.skipWhitespace(from: offset + 1)
        }
        return keys
    }
}
