extension RouteTemplate {
    /// The URL of `payload` under this template, or nil when a value is missing or of the wrong kind.
    public func url(for payload: [String: JSONValue]) -> String? {
        var out = scheme + "://"
        if !hasHost { out += "/" }
        for (index, part) in segments.enumerated() {
            if index > 0 { out += "/" }
            guard let text = fill(part, written: writtenSegments[index], from: payload) else { return nil }
            out += text
        }
        if !query.isEmpty {
            out += "?"
            for (index, item) in query.enumerated() {
                if index > 0 { out += "&" }
                guard let text = fill(item.value, written: writtenQuery[index], from: payload) else { return nil }
                out += item.key + "=" + text
            }
        }
        return out
    }

    private func fill(_ part: Part, written: Substring?, from payload: [String: JSONValue]) -> String? {
        switch part {
        case .literal(let literal):
            return written.map(String.init) ?? literal
        case .placeholder(let placeholder):
            guard let value = Destination.value(atPath: placeholder.path, in: payload) else { return nil }
            switch (placeholder.type, value) {
            case (.string, .string(let string)): return PercentEncoding.encode(string)
            case (.int, .int(let int)): return String(int)
            default: return nil
            }
        }
    }

    /// The payload a parsed URL fills in, or nil when it does not match this template.
    func match(_ url: ParsedURL) -> [String: JSONValue]? {
        guard url.scheme == scheme, url.segments.count == segments.count else { return nil }
        var payload: [String: JSONValue] = [:]
        for (index, part) in segments.enumerated() {
            let segment = url.segments[index]
            switch part {
            case .literal(let literal):
                guard segment == literal else { return nil }
            case .placeholder(let placeholder):
                guard Self.fill(placeholder, with: segment, into: &payload) else { return nil }
            }
        }
        for item in query {
            guard let value = url.queryValue(item.key) else { return nil }
            switch item.value {
            case .literal(let literal):
                guard value == literal else { return nil }
            case .placeholder(let placeholder):
                guard Self.fill(placeholder, with: value, into: &payload) else { return nil }
            }
        }
        return payload
    }

    private static func fill(_ placeholder: Placeholder, with text: String, into payload: inout [String: JSONValue]) -> Bool {
        let value: JSONValue
        switch placeholder.type {
        case .string:
            value = .string(text)
        case .int:
            guard let int = parseInteger(text) else { return false }
            value = .int(int)
        }
        insert(value, at: placeholder.path[...], into: &payload)
        return true
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout [String: JSONValue]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            object[key] = value
            return
        }
        var nested = object[key]?.objectValue ?? [:]
        insert(value, at: path.dropFirst(), into: &nested)
        object[key] = .object(nested)
    }

    /// `-?[0-9]+` within 64 bits.
    static func parseInteger(_ text: String) -> Int64? {
        let utf8 = text.utf8
        var digits = utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}

/// A deep link split for matching: scheme and host lower-cased, segments decoded, query items by key.
struct ParsedURL {
    var scheme: String
    var segments: [String]
    var query: [(key: String, value: String)]

    func queryValue(_ key: String) -> String? {
        query.first { $0.key == key }?.value
    }

    /// Splits `text`; nil when it cannot match any template (no scheme, a port or user info, a malformed escape).
    init?(_ text: String) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        scheme = text[..<schemeEnd.lowerBound].lowercased()
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var queryText: Substring?
        if let questionMark = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: questionMark)...]
            rest = rest[..<questionMark]
        }
        let raw = rest.split(separator: "/", omittingEmptySubsequences: false)
        let authority = raw.first ?? ""
        if authority.contains("@") || authority.contains(":") { return nil }
        var segments: [String] = []
        // The host is compared as written, never percent-decoded.
        if !authority.isEmpty { segments.append(authority.lowercased()) }
        for segment in raw.dropFirst() where !segment.isEmpty {
            guard let decoded = PercentEncoding.decode(segment) else { return nil }
            segments.append(decoded)
        }
        var query: [(key: String, value: String)] = []
        if let queryText {
            for item in queryText.split(separator: "&") {
                let key: Substring
                var value: Substring = ""
                if let equals = item.firstIndex(of: "=") {
                    key = item[..<equals]
                    value = item[item.index(after: equals)...]
                } else {
                    key = item
                }
                guard let decoded = PercentEncoding.decode(value) else { return nil }
                query.append((String(key), decoded))
            }
        }
        self.segments = segments
        self.query = query
    }
}
