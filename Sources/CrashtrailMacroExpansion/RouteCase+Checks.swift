import SwiftSyntax

extension RouteCase {
    /// What the written type of a payload value says about the placeholder that may hold it.
    enum WrittenType {
        /// `Int`, `UInt8`… : an `{x:int}` placeholder.
        case integer
        /// `String`, `UUID`, `URL`, `Date`… : encoded as a string, a plain `{x}` placeholder.
        case string
        /// `Bool`, `Double`, arrays… : no placeholder can print it.
        case neither
        /// A custom or unfamiliar type: the macro cannot tell, the runtime checks it.
        case unknown

        init(_ type: TypeSyntax) {
            var text = type.trimmedDescription
            while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
            if text.hasPrefix("Swift.") || text.hasPrefix("Foundation.") {
                text = String(text.drop { $0 != "." }.dropFirst())
            }
            switch text {
            case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": self = .integer
            case "String", "Substring", "Character", "UUID", "URL", "Date": self = .string
            case "Bool", "Double", "Float", "Float16", "Float80", "CGFloat", "Decimal": self = .neither
            default: self = text.hasPrefix("[") || text.hasPrefix("(") ? .neither : .unknown
            }
        }
    }

    /// Checks what the case's own syntax can tell: placeholders against labels and types, `redact` against the
    /// placeholders, and the roles (tab, root, flow) against the payload and presentation.
    /// - Parameters:
    ///   - conditions: the conditions some case `provides`.
    ///   - findings: where the problems go.
    func check(conditions: Set<String>, findings: inout Findings) {
        let placeholders = url.map(TemplatePlaceholder.placeholders(in:)) ?? []
        checkPlaceholders(placeholders, findings: &findings)
        checkRedact(placeholders, findings: &findings)
        for condition in requires where !conditions.contains(condition.value) {
            let known = conditions.sorted().joined(separator: ", ")
            findings.error(
                condition.node,
                .onCase(
                    name, "unknown-condition",
                    "requires \"\(condition.value)\", which no case provides; declare it with 'provides: [\"\(condition.value)\"]' on its flow case"
                        + (known.isEmpty ? "" : " (declared: \(known))")))
        }
        checkRoles(findings: &findings)
    }

    private func checkPlaceholders(_ placeholders: [TemplatePlaceholder], findings: inout Findings) {
        let node = urlNode.map(Syntax.init) ?? Syntax(attribute)
        for placeholder in placeholders {
            let key = placeholder.path.first ?? ""
            guard let value = payloadValue(key) else {
                findings.error(
                    node,
                    .onCase(
                        name, "unknown-placeholder-label",
                        "placeholder \(placeholder.text) names '\(key)', which is no label of the case; its labels are \(payloadKeys)"))
                continue
            }
            // A dotted path reaches into the value's own fields, which only the runtime sees.
            guard placeholder.path.count == 1 else { continue }
            let written = WrittenType(value.type)
            switch (placeholder.type, written) {
            case ("int", .string), ("int", .neither):
                findings.error(
                    node,
                    .onCase(
                        name, "int-placeholder-not-integer",
                        "placeholder \(placeholder.text) declares an integer but '\(key)' is \(value.type.trimmedDescription); write {\(key)} for a string"
                    ))
            case (nil, .integer):
                findings.error(
                    node,
                    .onCase(
                        name, "integer-placeholder-without-int",
                        "placeholder \(placeholder.text) holds a string but '\(key)' is \(value.type.trimmedDescription), so the case would have no URL; write {\(key):int}"
                    ))
            case (_, .neither):
                findings.error(
                    node,
                    .onCase(
                        name, "placeholder-type",
                        "placeholder \(placeholder.text) cannot hold '\(key)' of type \(value.type.trimmedDescription); a placeholder holds a string or an integer"
                    ))
            default: break
            }
        }
    }

    private func checkRedact(_ placeholders: [TemplatePlaceholder], findings: inout Findings) {
        for entry in redact {
            let path = entry.value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let key = path.first, payloadValue(key) != nil else {
                findings.error(
                    entry.node,
                    .onCase(
                        name, "redact-unknown-label",
                        "redact names \"\(entry.value)\", which is no label of the case; its labels are \(payloadKeys)"))
                continue
            }
            if !placeholders.contains(where: { $0.path.starts(with: path) }) {
                let known = placeholders.map { $0.path.joined(separator: ".") }
                findings.error(
                    entry.node,
                    .onCase(
                        name, "redact-not-placeholder",
                        "redact names \"\(entry.value)\", which no placeholder of the URL template holds"
                            + (known.isEmpty ? " (it has none)" : "; its placeholders are \(known.joined(separator: ", "))")))
            }
        }
    }

    private func checkRoles(findings: inout Findings) {
        let roles: [(on: Bool, node: ExprSyntax?, role: String)] = [
            (tab, tabNode, "a tab root"), (root, rootNode, "the root"), (!provides.isEmpty, provides.first?.node, "a flow"),
        ]
        for role in roles where role.on && !payload.isEmpty {
            findings.error(
                role.node.map(Syntax.init) ?? Syntax(attribute),
                .onCase(
                    name, "role-with-payload",
                    "is \(role.role) but has associated values (\(payloadKeys)); the Navigator creates it without any"))
        }
        guard let flow = provides.first else { return }
        let conditions = provides.map(\.value).joined(separator: ", ")
        if !isModal {
            findings.error(
                presentationNode ?? flow.node,
                .onCase(
                    name, "flow-not-modal",
                    "is the flow of \(conditions) but is not presented modally; add 'presentation: .modal'"))
        }
        if gate || !requires.isEmpty {
            findings.error(
                flow.node,
                .onCase(
                    name, "flow-gate-or-requires",
                    "is the flow of \(conditions) but \(gate ? "is a gate" : "requires a condition"); a flow is presented over the app without conditions"
                ))
        }
    }
}
