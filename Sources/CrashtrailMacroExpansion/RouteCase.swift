import SwiftSyntax

/// One case of a destination enum and what its `@Route` annotation declares.
struct RouteCase {
    /// A value the case carries: its payload key (the label, or `_0`, `_1`… for an unlabeled value, as
    /// synthesized `Codable` writes it) and its type as written.
    struct PayloadValue {
        let key: String
        let type: TypeSyntax
    }

    /// A string argument with the syntax it was read from, so that a diagnostic can point at it.
    struct Name {
        let value: String
        let node: ExprSyntax
    }

    let name: String
    let element: EnumCaseElementSyntax
    let attribute: AttributeSyntax
    let payload: [PayloadValue]
    var url: String?
    var urlNode: ExprSyntax?
    var isModal = false
    var presentationNode: ExprSyntax?
    var requires: [Name] = []
    var gate = false
    var redact: [Name] = []
    var screens: [String] = []
    var tab = false
    var tabNode: ExprSyntax?
    var root = false
    var rootNode: ExprSyntax?
    var provides: [Name] = []

    /// Reads the case `element` annotated by `attribute`, recording arguments that are not literals.
    init(element: EnumCaseElementSyntax, attribute: AttributeSyntax, findings: inout Findings) {
        name = Self.identifier(element.name)
        self.element = element
        self.attribute = attribute
        payload = (element.parameterClause?.parameters ?? []).enumerated().map { index, parameter in
            let label = parameter.firstName.map { Self.identifier($0) }
            let key = label.flatMap { $0 == "_" ? nil : $0 } ?? "_\(index)"
            return PayloadValue(key: key, type: parameter.type)
        }
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            read(argument, findings: &findings)
        }
    }

    /// The payload value whose key is `key`.
    func payloadValue(_ key: String) -> PayloadValue? {
        payload.first { $0.key == key }
    }

    /// The payload keys for messages: `id, text`, or `none`.
    var payloadKeys: String {
        payload.isEmpty ? "none (the case has no associated values)" : payload.map(\.key).joined(separator: ", ")
    }

    private mutating func read(_ argument: LabeledExprSyntax, findings: inout Findings) {
        let expression = argument.expression
        let label = argument.label?.text
        func refuse(_ expected: String) {
            findings.error(
                expression,
                .onCase(
                    name, "non-literal-argument",
                    "\(label.map { "'\($0):'" } ?? "the URL template") must be \(expected); the macro reads the source, not values"))
        }
        func names() -> [Name] {
            guard let strings = LiteralArgument.strings(expression) else {
                refuse("an array of string literals")
                return []
            }
            return strings.map { Name(value: $0.value, node: $0.node) }
        }
        func flag() -> Bool {
            guard let value = LiteralArgument.bool(expression) else {
                refuse("true or false")
                return false
            }
            return value
        }
        switch label {
        case nil:
            urlNode = expression
            if expression.is(NilLiteralExprSyntax.self) { return }
            guard let text = LiteralArgument.string(expression) else { return refuse("a string literal without interpolation, or nil") }
            url = text
        case "presentation":
            presentationNode = expression
            switch LiteralArgument.memberName(expression) {
            case "modal": isModal = true
            case "push": isModal = false
            default: refuse(".push or .modal")
            }
        case "requires": requires = names()
        case "gate": gate = flag()
        case "redact": redact = names()
        case "screens": screens = names().map(\.value)
        case "tab":
            tabNode = expression
            tab = flag()
        case "root":
            rootNode = expression
            root = flag()
        case "provides": provides = names()
        default:
            findings.error(argument, .onCase(name, "unknown-argument", "@Route has no argument '\(label ?? "")'"))
        }
    }

    /// An identifier without the backticks that let a keyword be one (`` `default` ``).
    static func identifier(_ token: TokenSyntax) -> String {
        var text = token.text
        if text.hasPrefix("`") && text.hasSuffix("`") && text.count >= 2 {
            text = String(text.dropFirst().dropLast())
        }
        return text
    }
}
