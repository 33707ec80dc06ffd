/// One navigation the app's Navigator carried out (SPEC section 5), at `t` milliseconds since the session
/// started.
public struct Step: Hashable, Sendable {
    /// Milliseconds since `session.started`, from a monotonic clock.
    public var t: Int64
    public var op: Operation

    public init(t: Int64, _ op: Operation) {
        self.t = t
        self.op = op
    }

    /// The op and its fields.
    public enum Operation: Hashable, Sendable {
        case push(Destination)
        case present(Destination)
        case open(OpenTarget)
        case pop
        case popToRoot
        case dismiss
        case select(tab: Int64)
        case complete(success: Bool)
        case satisfy(String)
        case revoke(String)

        /// The op's name as the trail writes it.
        public var name: String {
            switch self {
            case .push: "push"
            case .present: "present"
            case .open: "open"
            case .pop: "pop"
            case .popToRoot: "popToRoot"
            case .dismiss: "dismiss"
            case .select: "select"
            case .complete: "complete"
            case .satisfy: "satisfy"
            case .revoke: "revoke"
            }
        }
    }

    /// What an `open` names: a destination, or a deep link to parse with the manifest.
    public enum OpenTarget: Hashable, Sendable {
        case destination(Destination)
        case url(String)
    }
}

extension Step {
    /// The canonical JSON form.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["t": .int(t), "op": .string(op.name)]
        switch op {
        case .push(let destination), .present(let destination), .open(.destination(let destination)):
            object["to"] = destination.jsonValue
        case .open(.url(let url)): object["url"] = .string(url)
        case .pop, .popToRoot, .dismiss: break
        case .select(let tab): object["tab"] = .int(tab)
        case .complete(let success): object["success"] = .bool(success)
        case .satisfy(let condition), .revoke(let condition): object["condition"] = .string(condition)
        }
        return .object(object)
    }

    /// The fields each op may have (SPEC section 5), built once: reading a trail consults it for every step.
    private static let fieldsByOp: [String: Set<String>] = [
        "push": ["t", "op", "to"], "present": ["t", "op", "to"], "open": ["t", "op", "to", "url"],
        "pop": ["t", "op"], "popToRoot": ["t", "op"], "dismiss": ["t", "op"], "select": ["t", "op", "tab"],
        "complete": ["t", "op", "success"], "satisfy": ["t", "op", "condition"], "revoke": ["t", "op", "condition"],
    ]

    /// Reads a step, refusing an unknown op and missing, extra or mistyped fields.
    /// - Throws: `TrailError` naming the step's path and field.
    public init(jsonValue: JSONValue, path: String) throws(TrailError) {
        guard case .object(let object) = jsonValue else {
            throw TrailError(.wrongType, at: path, "a step must be an object, found \(jsonValue.kindName)")
        }
        guard let opValue = object["op"] else { throw TrailError(.missingField, at: path + ".op", "missing required field \"op\"") }
        let opName = try JSONField(opValue, path: path + ".op").string()
        guard let allowed = Self.fieldsByOp[opName] else {
            let known = Self.fieldsByOp.keys.sorted().joined(separator: ", ")
            throw TrailError(.unknownOp, at: path + ".op", "unknown op \"\(opName)\"; known ops: \(known)")
        }
        let fields = try JSONFields(jsonValue, path: path, allowed: allowed)
        let t = try fields.required("t").int()
        let op: Operation
        switch opName {
        case "push": op = .push(try fields.required("to").destination())
        case "present": op = .present(try fields.required("to").destination())
        case "open":
            switch (fields.optional("to"), fields.optional("url")) {
            case (let to?, nil): op = .open(.destination(try to.destination()))
            case (nil, let url?): op = .open(.url(try url.string()))
            case (nil, nil):
                throw TrailError(.missingField, at: path + ".to", "an open needs exactly one of \"to\" or \"url\", found neither")
            case (_?, _?):
                throw TrailError(.unknownField, at: path + ".url", "an open needs exactly one of \"to\" or \"url\", found both")
            }
        case "pop": op = .pop
        case "popToRoot": op = .popToRoot
        case "dismiss": op = .dismiss
        case "select": op = .select(tab: try fields.required("tab").int())
        case "complete": op = .complete(success: try fields.required("success").bool())
        case "satisfy": op = .satisfy(try fields.required("condition").string())
        default: op = .revoke(try fields.required("condition").string())
        }
        self.init(t: t, op)
    }
}
