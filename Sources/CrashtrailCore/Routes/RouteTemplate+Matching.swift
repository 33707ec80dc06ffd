extension RouteTemplate {
    /// The URL of `payload` under this template, or nil when a value is missing or of the wrong kind.
    package func url(for payload: [String: JSONValue]) -> String? {
        storage.url(for: payload)
    }

    /// The payload a parsed URL fills in, or nil when it does not match this template.
    func match(_ url: ParsedURL) -> [String: JSONValue]? {
        storage.match(url)
    }
}

extension RouteTemplate.Storage {
    /// The URL of `payload` under the template, or nil when a value is missing or of the wrong kind.
    ///
    /// The fixed text is copied as UTF-8 bytes into one buffer with the values between, which gives the same
    /// text as joining the parts as strings.
    func url(for payload: [String: JSONValue]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(printedText.count + 24 * printedHoles.count)
        var copied = 0
        for hole in printedHoles {
            out += printedText[copied..<hole.offset]
            copied = hole.offset
            guard let value = Destination.value(atPath: hole.placeholder.path, in: payload) else { return nil }
            switch (hole.placeholder.type, value) {
            case (.string, .string(let string)): PercentEncoding.encode(string, into: &out)
            case (.int, .int(let int)): out += String(int).utf8
            default: return nil
            }
        }
        out += printedText[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The payload a parsed URL fills in, or nil when it does not match the template.
    func match(_ url: ParsedURL) -> [String: JSONValue]? {
        guard url.segments.count == segments.count, url.scheme == scheme else { return nil }
        // Literals first: most templates tried fail on one, and then no payload is built.
        for (index, part) in segments.enumerated() {
            if case .literal(let literal) = part, url.segments[index] != literal { return nil }
        }
        for item in query {
            guard let value = url.queryValue(item.key) else { return nil }
            if case .literal(let literal) = item.value, value != literal { return nil }
        }
        var payload: [String: JSONValue] = [:]
        for (index, part) in segments.enumerated() {
            if case .placeholder(let placeholder) = part {
                guard RouteTemplate.fill(placeholder, with: url.segments[index], into: &payload) else { return nil }
            }
        }
        for item in query {
            if case .placeholder(let placeholder) = item.value {
                guard let value = url.queryValue(item.key), RouteTemplate.fill(placeholder, with: value, into: &payload) else {
                    return nil
                }
            }
        }
        return payload
    }
}

extension RouteTemplate {
    fileprivate static func fill(_ placeholder: Placeholder, with text: String, into payload: inout [String: JSONValue]) -> Bool {
        let value: JSONValue
        switch placeholder.type {
        case .string:
            value = .string(text)
        case .int:
            guard let int = parseInteger(text) else { return false }
            value = .int(int)
        }
        Destination.setValue(value, atPath: placeholder.path[...], in: &payload)
        return true
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
///
/// It scans the string's UTF-8 bytes once, in place; replay parses a URL for every open step, so this is on the
/// hot path.
struct ParsedURL {
    /// A query item, key as written and value decoded.
    struct QueryItem {
        let key: String
        let value: String
    }

    var scheme: String
    var segments: [String]
    var query: [QueryItem]

    /// The value of the first query item named `key`.
    func queryValue(_ key: String) -> String? {
        for item in query where item.key == key { return item.value }
        return nil
    }

    /// Splits `text`; nil when it cannot match any template (no scheme, a port or user info, a malformed escape).
    init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(scheme: String, segments: [String], query: [QueryItem]) {
        self.scheme = scheme
        self.segments = segments
        self.query = query
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParsedURL? {
        guard let schemeEnd = schemeSeparator(in: bytes) else { return nil }
        let scheme = lowercased(bytes[0..<schemeEnd])
        let start = schemeEnd + 3
        // The fragment is ignored; the query starts at the first "?" before it.
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let queryStart = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? end
        // One allocation: at most one segment per "/" after the host, and the host.
        var segments: [String] = []
        segments.reserveCapacity(bytes[start..<pathEnd].reduce(into: 0) { count, byte in count += byte == UInt8(ascii: "/") ? 1 : 0 } + 1)
        var segmentStart = start
        var isAuthority = true
        for index in start...pathEnd where index == pathEnd || bytes[index] == UInt8(ascii: "/") {
            let segment = bytes[segmentStart..<index]
            segmentStart = index + 1
            if isAuthority {
                isAuthority = false
                if segment.contains(UInt8(ascii: "@")) || segment.contains(UInt8(ascii: ":")) { return nil }
                // The host is compared as written, never percent-decoded.
                if !segment.isEmpty { segments.append(lowercased(segment)) }
                continue
            }
            guard !segment.isEmpty else { continue }
            guard let decoded = PercentEncoding.decode(utf8: UnsafeBufferPointer(rebasing: segment)) else { return nil }
            segments.append(decoded)
        }
        var query: [QueryItem] = []
        if let queryStart {
            query.reserveCapacity(bytes[queryStart..<end].reduce(into: 0) { count, byte in count += byte == UInt8(ascii: "&") ? 1 : 0 } + 1)
            var itemStart = queryStart + 1
            for index in itemStart...end where index == end || bytes[index] == UInt8(ascii: "&") {
                let item = bytes[itemStart..<index]
                itemStart = index + 1
                guard !item.isEmpty else { continue }
                let equals = item.firstIndex(of: UInt8(ascii: "="))
                let key = String(decoding: UnsafeBufferPointer(rebasing: item[..<(equals ?? item.endIndex)]), as: UTF8.self)
                let value = equals.map { item[($0 + 1)...] } ?? item[item.endIndex...]
                guard let decoded = PercentEncoding.decode(utf8: UnsafeBufferPointer(rebasing: value)) else { return nil }
                query.append(QueryItem(key: key, value: decoded))
            }
        }
        return ParsedURL(scheme: scheme, segments: segments, query: query)
    }

    private static func schemeSeparator(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        for index in 0..<(bytes.count - 2)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
            return index
        }
        return nil
    }

    /// Lower-cases ASCII directly, and anything else as `String.lowercased()` does (as templates are).
    static func lowercased(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let bytes = UnsafeBufferPointer(rebasing: slice)
        var hasUppercase = false
        for byte in bytes {
            if byte >= 0x80 { return String(decoding: bytes, as: UTF8.self).lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
        }
        guard hasUppercase else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return bytes.count
        }
    }
}
