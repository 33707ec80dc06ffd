/// A destination's deep-link template (SPEC section 3), such as `piratebay://orders/{id.rawValue}?tab=summary`.
///
/// The host counts as the first segment. Placeholders fill whole path segments or query values; `{key:int}`
/// declares an integer, the default type is string; a dotted key reaches into nested objects.
package struct RouteTemplate: Hashable, Sendable {
    /// The parts, read once and never changed: copying a template (with every spec a lookup returns) copies one
    /// reference instead of every string and array in it.
    let storage: Storage

    /// The template as written in the manifest.
    package var text: String { storage.text }
    /// The scheme, lower-cased.
    package var scheme: String { storage.scheme }
    /// The host (lower-cased) then the path segments, empty segments removed.
    package var segments: [Part] { storage.segments }
    /// The query items the template names, in order.
    package var query: [(key: String, value: Part)] { storage.query }
    /// Whether the template has a host (`app:///path` has none).
    var hasHost: Bool { storage.hasHost }

    final class Storage: Sendable {
        let text: String
        let scheme: String
        let segments: [Part]
        let query: [(key: String, value: Part)]
        let hasHost: Bool
        let literalCount: Int
        /// The template as ``RouteTemplate/url(for:)`` prints it: the fixed text as UTF-8 (scheme, separators,
        /// literals as written, query keys), with the placeholders' values to insert at the holes' offsets.
        let printedText: [UInt8]
        let printedHoles: [(offset: Int, placeholder: Placeholder)]

        /// The parts of a template; `writtenSegments` and `writtenQuery` are its literal segments and query
        /// values as written (nil for placeholders), which it prints.
        init(
            text: String, scheme: String, segments: [Part], query: [(key: String, value: Part)], hasHost: Bool,
            writtenSegments: [Substring?], writtenQuery: [Substring?], literalCount: Int
        ) {
            self.text = text
            self.scheme = scheme
            self.segments = segments
            self.query = query
            self.hasHost = hasHost
            self.literalCount = literalCount
            var printedText = Array(scheme.utf8) + Array("://".utf8)
            var printedHoles: [(offset: Int, placeholder: Placeholder)] = []
            func print(_ part: Part, written: Substring?) {
                switch part {
                case .literal(let literal): printedText += written.map { Array($0.utf8) } ?? Array(literal.utf8)
                case .placeholder(let placeholder): printedHoles.append((printedText.count, placeholder))
                }
            }
            if !hasHost { printedText.append(UInt8(ascii: "/")) }
            for (index, part) in segments.enumerated() {
                if index > 0 { printedText.append(UInt8(ascii: "/")) }
                print(part, written: writtenSegments[index])
            }
            if !query.isEmpty {
                printedText.append(UInt8(ascii: "?"))
                for (index, item) in query.enumerated() {
                    if index > 0 { printedText.append(UInt8(ascii: "&")) }
                    printedText += Array(item.key.utf8)
                    printedText.append(UInt8(ascii: "="))
                    print(item.value, written: writtenQuery[index])
                }
            }
            self.printedText = printedText
            self.printedHoles = printedHoles
        }
    }

    /// A literal or a placeholder.
    package enum Part: Hashable, Sendable {
        case literal(String)
        case placeholder(Placeholder)

        var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
    }

    /// A `{key}` or `{key:int}` placeholder.
    package struct Placeholder: Hashable, Sendable {
        /// The dotted path into the payload, split (`["id", "rawValue"]`).
        package let path: [String]
        package let type: ValueType
    }

    /// A placeholder's declared type.
    package enum ValueType: String, Hashable, Sendable {
        case string
        case int
    }

    /// The number of literal parts (host, path segments and literal query items), which ranks matches.
    package var literalCount: Int { storage.literalCount }

    /// Every placeholder, in template order.
    package var placeholders: [Placeholder] {
        (segments + query.map(\.value)).compactMap {
            if case .placeholder(let placeholder) = $0 { return placeholder }
            return nil
        }
    }

    /// A key that is equal for two templates that match exactly the same URLs.
    var shape: String {
        func describe(_ part: Part) -> String {
            switch part {
            case .literal(let literal): "L" + literal
            case .placeholder(let placeholder): "P" + placeholder.type.rawValue
            }
        }
        let path = segments.map(describe).joined(separator: "\u{1}")
        let items = query.map { $0.key + "\u{2}" + describe($0.value) }.sorted().joined(separator: "\u{1}")
        return scheme + "\u{3}" + path + "\u{3}" + items
    }

    package static func == (lhs: RouteTemplate, rhs: RouteTemplate) -> Bool { lhs.storage === rhs.storage || lhs.text == rhs.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Reads a template.
    /// - Throws: `RouteTemplateError` saying what cannot be read.
    package init(_ text: String) throws(RouteTemplateError) {
        // Delimiters are found among Unicode scalars, as `ParsedURL` finds them among UTF-8 bytes: a combining
        // mark after "?", "&", "=" or "/" must not hide the delimiter (Characters would join them).
        guard let schemeEnd = Self.scalarRange(of: "://", in: text[...]) else {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has no scheme; write it as scheme://host/path, e.g. myapp://item/{id}")
        }
        let scheme = String(text[..<schemeEnd.lowerBound])
        let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let others = Set("0123456789+-.".utf8)
        guard let first = scheme.utf8.first, letters.contains(first),
            scheme.utf8.allSatisfy({ letters.contains($0) || others.contains($0) })
        else {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has an invalid scheme \"\(scheme)\"")
        }
        var rest = text[schemeEnd.upperBound...]
        if rest.unicodeScalars.contains("#") {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has a fragment; templates cannot name one")
        }
        var queryText: Substring?
        if let questionMark = rest.unicodeScalars.firstIndex(of: "?") {
            queryText = rest[rest.unicodeScalars.index(after: questionMark)...]
            rest = rest[..<questionMark]
        }
        let rawSegments = rest.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(Substring.init)
        let authority = rawSegments.first ?? ""
        if authority.unicodeScalars.contains("@") || authority.unicodeScalars.contains(":") {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has a port or user info; deep links name neither")
        }
        if authority.unicodeScalars.contains("{") || authority.unicodeScalars.contains("}") {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has a placeholder in the host; the host must be literal")
        }
        var segments: [Part] = []
        var writtenSegments: [Substring?] = []
        if !authority.isEmpty {
            segments.append(.literal(authority.lowercased()))
            writtenSegments.append(authority)
        }
        for raw in rawSegments.dropFirst() where !raw.isEmpty {
            let part = try Self.part(raw, in: text)
            segments.append(part)
            writtenSegments.append(part.isLiteral ? raw : nil)
        }
        var query: [(key: String, value: Part)] = []
        var writtenQuery: [Substring?] = []
        if let queryText {
            for item in queryText.unicodeScalars.split(separator: "&").map(Substring.init) {
                let key: Substring
                let value: Substring
                if let equals = item.unicodeScalars.firstIndex(of: "=") {
                    key = item[..<equals]
                    value = item[item.unicodeScalars.index(after: equals)...]
                } else {
                    key = item
                    value = ""
                }
                if key.isEmpty { throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has a query item without a key") }
                if key.unicodeScalars.contains("{") || key.unicodeScalars.contains("}") {
                    throw RouteTemplateError(
                        .invalidTemplate, "\"\(text)\" has a placeholder in a query key; placeholders fill query values")
                }
                if query.contains(where: { $0.key == key }) {
                    throw RouteTemplateError(.invalidTemplate, "\"\(text)\" names the query key \"\(key)\" twice")
                }
                let part = try Self.part(value, in: text)
                query.append((String(key), part))
                writtenQuery.append(part.isLiteral ? value : nil)
            }
        }
        let literalCount = segments.filter(\.isLiteral).count + query.filter(\.value.isLiteral).count
        let placeholders = (segments + query.map(\.value)).compactMap { part -> Placeholder? in
            if case .placeholder(let placeholder) = part { return placeholder }
            return nil
        }
        for (index, placeholder) in placeholders.enumerated() {
            for other in placeholders[..<index] {
                let shorter = min(placeholder.path.count, other.path.count)
                if Array(placeholder.path.prefix(shorter)) == Array(other.path.prefix(shorter)) {
                    throw RouteTemplateError(
                        .invalidTemplate,
                        "\"\(text)\" uses the placeholder {\(other.path.joined(separator: "."))} together with {\(placeholder.path.joined(separator: "."))}; each value can be filled once"
                    )
                }
            }
        }
        self.storage = Storage(
            text: text, scheme: scheme.lowercased(), segments: segments, query: query, hasHost: !authority.isEmpty,
            writtenSegments: writtenSegments, writtenQuery: writtenQuery, literalCount: literalCount)
    }

    private static func part(_ raw: Substring, in text: String) throws(RouteTemplateError) -> Part {
        let scalars = raw.unicodeScalars
        guard scalars.contains("{") || scalars.contains("}") else {
            guard let decoded = PercentEncoding.decode(raw) else {
                throw RouteTemplateError(.invalidTemplate, "\"\(text)\" has a malformed percent escape in \"\(raw)\"")
            }
            return .literal(decoded)
        }
        guard scalars.first == "{", scalars.last == "}", scalars.count >= 2 else {
            throw RouteTemplateError(
                .invalidTemplate, "\"\(text)\": the placeholder in \"\(raw)\" must fill the whole path segment or query value")
        }
        let inner = Substring(scalars.dropFirst().dropLast())
        if inner.unicodeScalars.contains("{") || inner.unicodeScalars.contains("}") {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\": \"\(raw)\" holds more than one placeholder")
        }
        var keyText = inner
        var type = ValueType.string
        if let colon = inner.unicodeScalars.firstIndex(of: ":") {
            keyText = inner[..<colon]
            let typeName = inner[inner.unicodeScalars.index(after: colon)...]
            guard let declared = ValueType(rawValue: String(typeName)) else {
                throw RouteTemplateError(
                    .invalidTemplate,
                    "\"\(text)\": placeholder type \"\(typeName)\" is unknown; use {\(keyText)} for a string or {\(keyText):int} for an integer"
                )
            }
            type = declared
        }
        let path = keyText.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map { String(Substring($0)) }
        guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0.isWhitespace }) }) else {
            throw RouteTemplateError(.invalidTemplate, "\"\(text)\": \"\(raw)\" is not a valid placeholder key")
        }
        return .placeholder(Placeholder(path: path, type: type))
    }

    /// The range of the first occurrence of `needle` among the Unicode scalars of `text`.
    private static func scalarRange(of needle: String, in text: Substring) -> Range<String.Index>? {
        let scalars = text.unicodeScalars
        let pattern = Array(needle.unicodeScalars)
        var start = scalars.startIndex
        while start != scalars.endIndex {
            var index = start
            var matched = 0
            while matched < pattern.count, index != scalars.endIndex, scalars[index] == pattern[matched] {
                scalars.formIndex(after: &index)
                matched += 1
            }
            if matched == pattern.count { return start..<index }
            scalars.formIndex(after: &start)
        }
        return nil
    }
}

/// A template that cannot be read.
package struct RouteTemplateError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// Text that is not a deep-link template (SPEC section 3).
        package static let invalidTemplate = Code(name: "invalid-template")
    }

    package var code: Code
    package var message: String

    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what is wrong with the template, quoting it.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
