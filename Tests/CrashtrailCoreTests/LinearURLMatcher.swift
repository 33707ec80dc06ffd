import CrashtrailCore

/// The deep-link matching `Manifest.destination(forURL:)` did before the route index, kept as the reference the
/// index must agree with: every template tried in routing priority (more literal parts first, then manifest
/// order) against the URL split by a byte scan.
///
/// A copy of the replaced code, on public API only, so a change to the library's matching cannot change the
/// reference too.
struct LinearURLMatcher {
    /// Destination names and templates, in routing priority.
    let routes: [(name: String, template: RouteTemplate)]

    init(manifest: Manifest) {
        let destinations = manifest.destinations
        routes = destinations.indices
            .filter { destinations[$0].route != nil }
            .sorted { lhs, rhs in
                let left = destinations[lhs].route?.literalCount ?? 0
                let right = destinations[rhs].route?.literalCount ?? 0
                return left != right ? left > right : lhs < rhs
            }
            .compactMap { index in destinations[index].route.map { (destinations[index].name, $0) } }
    }

    func destination(forURL url: String) -> Destination? {
        guard let parsed = SplitURL(url) else { return nil }
        for route in routes {
            if let payload = Self.match(route.template, parsed) {
                return Destination(route.name, payload)
            }
        }
        return nil
    }

    private static func match(_ template: RouteTemplate, _ url: SplitURL) -> [String: JSONValue]? {
        guard url.scheme == template.scheme, url.segments.count == template.segments.count else { return nil }
        var payload: [String: JSONValue] = [:]
        for (index, part) in template.segments.enumerated() {
            let segment = url.segments[index]
            switch part {
            case .literal(let literal):
                guard segment == literal else { return nil }
            case .placeholder(let placeholder):
                guard fill(placeholder, with: segment, into: &payload) else { return nil }
            }
        }
        for item in template.query {
            guard let value = url.queryValue(item.key) else { return nil }
            switch item.value {
            case .literal(let literal):
                guard value == literal else { return nil }
            case .placeholder(let placeholder):
                guard fill(placeholder, with: value, into: &payload) else { return nil }
            }
        }
        return payload
    }

    private static func fill(
        _ placeholder: RouteTemplate.Placeholder, with text: String, into payload: inout [String: JSONValue]
    ) -> Bool {
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
    private static func parseInteger(_ text: String) -> Int64? {
        let utf8 = text.utf8
        var digits = utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}

/// A deep link split for matching as before the route index: scheme and host lower-cased, segments decoded,
/// query items by key.
private struct SplitURL {
    var scheme: String
    var segments: [String]
    var query: [(key: String, value: String)]

    func queryValue(_ key: String) -> String? {
        query.first { $0.key == key }?.value
    }

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let schemeEnd = Self.schemeSeparator(in: bytes) else { return nil }
        scheme = Self.lowercased(bytes[0..<schemeEnd])
        let start = schemeEnd + 3
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let queryStart = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? end
        var segments: [String] = []
        var segmentStart = start
        var isAuthority = true
        for index in start...pathEnd where index == pathEnd || bytes[index] == UInt8(ascii: "/") {
            let segment = bytes[segmentStart..<index]
            segmentStart = index + 1
            if isAuthority {
                isAuthority = false
                if segment.contains(UInt8(ascii: "@")) || segment.contains(UInt8(ascii: ":")) { return nil }
                if !segment.isEmpty { segments.append(Self.lowercased(segment)) }
                continue
            }
            guard !segment.isEmpty else { continue }
            guard let decoded = Self.decode(segment) else { return nil }
            segments.append(decoded)
        }
        var query: [(key: String, value: String)] = []
        if let queryStart {
            var itemStart = queryStart + 1
            for index in itemStart...end where index == end || bytes[index] == UInt8(ascii: "&") {
                let item = bytes[itemStart..<index]
                itemStart = index + 1
                guard !item.isEmpty else { continue }
                let equals = item.firstIndex(of: UInt8(ascii: "="))
                let key = String(decoding: item[..<(equals ?? item.endIndex)], as: UTF8.self)
                let value = equals.map { item[($0 + 1)...] } ?? []
                guard let decoded = Self.decode(value) else { return nil }
                query.append((key, decoded))
            }
        }
        self.segments = segments
        self.query = query
    }

    private static func schemeSeparator(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 3 else { return nil }
        for index in 0..<(bytes.count - 2)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
            return index
        }
        return nil
    }

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).lowercased() }
        return String(decoding: bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `%XX` escapes decoded; nil for a malformed escape or bytes that are not UTF-8.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(validating: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
