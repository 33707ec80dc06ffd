extension Manifest {
    /// The manifest written back as a JSON manifest document (SPEC section 3), destinations and conditions in
    /// manifest order.
    ///
    /// ``init(yaml:source:)`` loads it to a manifest with the same app, tabs, root, transition, conditions and
    /// destinations, so the same trails navigate and route alike. A recorder's journal keeps it, so a journal
    /// recovers without the manifest file.
    package var documentText: String {
        var out: [UInt8] = []
        out.reserveCapacity(256 + destinations.count * 96)
        func key(_ name: String) {
            CanonicalJSON.writeString(name, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        func comma(_ first: inout Bool) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
        }
        out.append(UInt8(ascii: "{"))
        key("app")
        CanonicalJSON.writeString(app, into: &out)
        if !tabs.isEmpty {
            out.append(UInt8(ascii: ","))
            key("tabs")
            CanonicalJSON.write(.array(tabs.map { .string($0) }), into: &out)
        }
        if let root {
            out.append(UInt8(ascii: ","))
            key("root")
            CanonicalJSON.writeString(root, into: &out)
        }
        out.append(UInt8(ascii: ","))
        key("transitions")
        CanonicalJSON.write(.object(["modal": .int(modalTransition)]), into: &out)
        out.append(UInt8(ascii: ","))
        key("conditions")
        out.append(UInt8(ascii: "{"))
        var first = true
        for condition in conditions {
            comma(&first)
            key(condition.name)
            CanonicalJSON.write(.object(["flow": .string(condition.flow)]), into: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: ","))
        key("destinations")
        out.append(UInt8(ascii: "{"))
        first = true
        for spec in destinations {
            comma(&first)
            key(spec.name)
            var fields: [String: JSONValue] = ["presentation": .string(spec.presentation.rawValue)]
            if let route = spec.route { fields["url"] = .string(route.text) }
            if !spec.requires.isEmpty { fields["requires"] = .array(spec.requires.map { .string($0) }) }
            if spec.gate { fields["gate"] = .bool(true) }
            if !spec.redact.isEmpty { fields["redact"] = .array(spec.redact.map { .string($0.joined(separator: ".")) }) }
            CanonicalJSON.write(.object(fields), into: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
