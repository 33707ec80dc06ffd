extension Manifest {
    /// Whether `destination` holds a recorder's stand-in for a redacted value (SPEC section 12): its destination
    /// redacts some payload path, and the value there is a `"redacted-"` string of 8 lowercase hex digits, an
    /// integer (the recorder writes integer stand-ins as plain non-negative integers, which cannot be told from
    /// real ones, so an integer at a redacted path counts), or an array or object holding one.
    package func holdsStandIn(_ destination: Destination) -> Bool {
        guard let spec = spec(named: destination.name), !spec.redact.isEmpty else { return false }
        return spec.redact.contains { path in
            guard let value = destination.value(atPath: path) else { return false }
            return Self.isStandIn(value)
        }
    }

    private static func isStandIn(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text):
            let bytes = Array(text.utf8)
            return bytes.count == 17 && text.hasPrefix("redacted-")
                && bytes[9...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        case .int(let number): return number >= 0 && number <= Int64(UInt32.max)
        case .array(let values): return values.contains(where: isStandIn)
        case .object(let fields): return fields.values.contains(where: isStandIn)
        case .null, .bool: return false
        }
    }
}
