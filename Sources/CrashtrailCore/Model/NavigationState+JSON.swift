extension NavigationState {
    /// The canonical JSON form: all five fields, conditions sorted.
    public var jsonValue: JSONValue {
        .object([
            "tab": tab.map { .int(Int64($0)) } ?? .null,
            "stacks": .array(stacks.map { .array($0.map(\.jsonValue)) }),
            "modals": .array(modals.map { .array($0.map(\.jsonValue)) }),
            "conditions": .array(sortedConditions.map { .string($0) }),
            "pending": pending.map { .object(["to": $0.destination.jsonValue, "mode": .string($0.mode.rawValue)]) } ?? .null,
        ])
    }

    /// The canonical JSON text.
    public var canonicalJSON: String { CanonicalJSON.string(of: jsonValue) }

    /// Reads a state, refusing unknown fields, an out-of-range `tab` and empty stacks.
    ///
    /// `conditions` may be absent (empty) and `pending` absent (null).
    /// - Parameters:
    ///   - jsonValue: the state's JSON.
    ///   - path: where the state sits in its document, for error messages (`base`, `final`).
    /// - Throws: `TrailError` naming the field.
    public init(jsonValue: JSONValue, path: String) throws(TrailError) {
        let fields = try JSONFields(jsonValue, path: path, allowed: ["tab", "stacks", "modals", "conditions", "pending"])
        let stacks = try fields.required("stacks").array { (element, _) throws(TrailError) in try Self.stack(element) }
        var tab: Int?
        switch try fields.required("tab").value {
        case .null: tab = nil
        case .int(let value):
            guard let index = Int(exactly: value) else {
                throw TrailError(.invalidState, at: path + ".tab", "tab \(value) is out of range")
            }
            tab = index
        case let other:
            throw TrailError(.wrongType, at: path + ".tab", "expected an integer or null, found \(other.kindName)")
        }
        let modals = try fields.required("modals").array { (element, _) throws(TrailError) in try Self.stack(element) }
        var conditions: Set<String> = []
        if let field = fields.optional("conditions") {
            for name in try field.array({ (element, elementPath) throws(TrailError) in try element.string() }) {
                conditions.insert(name)
            }
        }
        var pending: PendingDestination?
        if let field = fields.optional("pending"), field.value != .null {
            let pendingFields = try JSONFields(field.value, path: field.path, allowed: ["to", "mode"])
            let destination = try pendingFields.required("to").destination()
            let modeField = try pendingFields.required("mode")
            guard let mode = RequestMode(rawValue: try modeField.string()) else {
                throw TrailError(.wrongType, at: modeField.path, "expected \"push\", \"present\" or \"open\"")
            }
            pending = PendingDestination(destination, mode: mode)
        }
        self.init(tab: tab, stacks: stacks, modals: modals, conditions: conditions, pending: pending)
        try validate(path: path)
    }

    private static func stack(_ field: JSONField) throws(TrailError) -> [Destination] {
        try field.array { (element, _) throws(TrailError) in try element.destination() }
    }
}
