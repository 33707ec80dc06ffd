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
        let stacks = try fields.required("stacks").array { (element, elementPath) throws(TrailError) in
            try Self.stack(element, path: elementPath)
        }
        guard !stacks.isEmpty else { throw TrailError(.invalidState, at: path + ".stacks", "a state needs at least one stack") }
        var tab: Int?
        switch try fields.required("tab").value {
        case .null: tab = nil
        case .int(let value):
            guard value >= 0, value < stacks.count else {
                throw TrailError(
                    .invalidState, at: path + ".tab", "tab \(value) is out of range: the state has \(stacks.count) stack(s)")
            }
            tab = Int(value)
        case let other:
            throw TrailError(.wrongType, at: path + ".tab", "expected an integer or null, found \(other.kindName)")
        }
        if tab == nil, stacks.count != 1 {
            throw TrailError(
                .invalidState, at: path + ".stacks", "without a tab bar (tab null) a state has exactly one stack, found \(stacks.count)")
        }
        let modals = try fields.required("modals").array { (element, elementPath) throws(TrailError) in
            try Self.stack(element, path: elementPath)
        }
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
    }

    private static func stack(_ field: JSONField, path: String) throws(TrailError) -> [Destination] {
        let stack = try field.array { (element, _) throws(TrailError) in try element.destination() }
        guard !stack.isEmpty else { throw TrailError(.invalidState, at: path, "a stack must not be empty") }
        return stack
    }
}
