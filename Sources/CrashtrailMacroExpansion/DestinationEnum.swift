import SwiftSyntax

/// A destination enum as `@TrailManifest` reads it: the app, the modal transition and every case with its
/// `@Route`, checked as far as the syntax can tell.
struct DestinationEnum {
    /// A condition and the case presented when it is missing.
    struct Condition {
        let name: String
        let flow: String
    }

    let typeName: String
    var app = ""
    var modalTransition = 500
    var cases: [RouteCase] = []
    /// Conditions in the order their flow cases are declared.
    var conditions: [Condition] = []

    /// Reads `declaration`, annotated by `attribute`, recording every problem in `findings`.
    init(attribute: AttributeSyntax, declaration: EnumDeclSyntax, findings: inout Findings) {
        typeName = RouteCase.identifier(declaration.name)
        readArguments(of: attribute, findings: &findings)
        for member in declaration.memberBlock.members {
            if let block = member.decl.as(IfConfigDeclSyntax.self), Self.holdsCases(block) {
                // The macro sees every clause and cannot tell which one builds: a case inside would be in the
                // manifest of every build or of none.
                findings.error(
                    block,
                    TrailManifestDiagnostic(
                        code: "conditional-cases",
                        message: "\(typeName) declares cases inside #if; declare them outside, so that every build has one manifest"))
                continue
            }
            guard let caseDeclaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            readCases(caseDeclaration, findings: &findings)
        }
        collectConditions(findings: &findings)
        let declared = Set(conditions.map(\.name))
        for routeCase in cases {
            routeCase.check(conditions: declared, findings: &findings)
        }
        checkLaunch(attribute: attribute, findings: &findings)
    }

    /// Whether a clause of `block` declares a case.
    private static func holdsCases(_ block: IfConfigDeclSyntax) -> Bool {
        block.clauses.contains { clause in
            clause.elements?.as(MemberBlockItemListSyntax.self)?.contains { $0.decl.is(EnumCaseDeclSyntax.self) } == true
        }
    }

    private mutating func readArguments(of attribute: AttributeSyntax, findings: inout Findings) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
            case "app":
                guard let text = LiteralArgument.string(argument.expression) else {
                    findings.error(
                        argument.expression,
                        TrailManifestDiagnostic(
                            code: "non-literal-argument", message: "'app:' must be a string literal: the app's bundle ID"))
                    continue
                }
                app = text
            case "modalTransition":
                guard let value = LiteralArgument.int(argument.expression) else {
                    findings.error(
                        argument.expression,
                        TrailManifestDiagnostic(
                            code: "non-literal-argument", message: "'modalTransition:' must be an integer literal: milliseconds"))
                    continue
                }
                modalTransition = value
            default:
                findings.error(
                    argument,
                    TrailManifestDiagnostic(
                        code: "unknown-argument", message: "@TrailManifest has no argument '\(argument.label?.text ?? "")'"))
            }
        }
    }

    private mutating func readCases(_ declaration: EnumCaseDeclSyntax, findings: inout Findings) {
        let routes = declaration.attributes.compactMap { $0.as(AttributeSyntax.self) }.filter {
            let name = $0.attributeName.trimmedDescription
            return name == "Route" || name == "CrashtrailDestinations.Route"
        }
        guard let attribute = routes.first else {
            for element in declaration.elements {
                let name = RouteCase.identifier(element.name)
                findings.error(
                    element,
                    .onCase(
                        name, "missing-route",
                        "has no @Route; every case is a destination of the manifest, so give it one (@Route(nil) for a screen without a deep link)"
                    ))
            }
            return
        }
        let first = declaration.elements.first.map { RouteCase.identifier($0.name) } ?? ""
        if routes.count > 1 {
            findings.error(routes[1], .onCase(first, "duplicate-route", "has more than one @Route; keep one"))
        }
        if declaration.elements.count > 1 {
            findings.error(
                declaration.elements,
                .onCase(first, "shared-route", "shares its @Route with other cases; declare each case with its own @Route"))
        }
        for element in declaration.elements {
            cases.append(RouteCase(element: element, attribute: attribute, findings: &findings))
        }
    }

    private mutating func collectConditions(findings: inout Findings) {
        for routeCase in cases {
            for condition in routeCase.provides {
                if let other = conditions.first(where: { $0.name == condition.value }) {
                    findings.error(
                        condition.node,
                        .onCase(
                            routeCase.name, "duplicate-flow",
                            "provides \"\(condition.value)\", which case '\(other.flow)' already provides; a condition has one flow"))
                    continue
                }
                conditions.append(Condition(name: condition.value, flow: routeCase.name))
            }
        }
    }

    private func checkLaunch(attribute: AttributeSyntax, findings: inout Findings) {
        let tabs = cases.filter(\.tab)
        let roots = cases.filter(\.root)
        for extra in roots.dropFirst() {
            findings.error(
                extra.rootNode.map(Syntax.init) ?? Syntax(extra.attribute),
                .onCase(extra.name, "duplicate-root", "is a second root after case '\(roots[0].name)'; an app launches on one"))
        }
        if let root = roots.first, let tab = tabs.first {
            findings.error(
                root.rootNode.map(Syntax.init) ?? Syntax(root.attribute),
                .onCase(
                    root.name, "root-with-tabs",
                    "is the root but case '\(tab.name)' is a tab; an app with a tab bar launches on its first tab, so remove one"))
        }
        if tabs.isEmpty && roots.isEmpty {
            findings.error(
                attribute,
                TrailManifestDiagnostic(
                    code: "missing-launch",
                    message:
                        "\(typeName) has no tab and no root; mark its tab roots with 'tab: true', or the destination shown at launch with 'root: true'"
                ))
        }
    }
}
