import CrashtrailCore

extension Destination {
    /// A short form for people: `home`, `item(id: "L-9")`, `page(2)`, `order(id: {"rawValue":"A1"})`; a value that is
    /// unknown (`null`, as in a trail inferred from breadcrumbs) is `unknown`: `item(id: unknown)`.
    var shortText: String {
        guard !payload.isEmpty else { return name }
        let parts = CanonicalJSON.sortedKeys(payload).map { key -> String in
            let value = payload[key].map { $0 == .null ? "unknown" : CanonicalJSON.string(of: $0) } ?? "unknown"
            return Self.isUnlabeled(key) ? value : "\(key): \(value)"
        }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }

    private static func isUnlabeled(_ key: String) -> Bool {
        key.hasPrefix("_") && key.count > 1 && key.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
