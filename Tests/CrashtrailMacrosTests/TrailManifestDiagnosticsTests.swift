import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@TrailManifest` refuses at build time: each error points at the case or argument at fault and names the
/// case, and nothing is generated.
@Suite("@TrailManifest diagnostics")
struct TrailManifestDiagnosticsTests {
    /// Expands `cases` inside a tabbed enum and expects one error, at `line` and `column` of the source.
    private func refuses(
        _ cases: String, expanded: String, id: String, message: String, line: Int, column: Int, sourceLine: UInt = #line
    ) {
        let indented = { (text: String) in text.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") }
        MacroAssertion.expand(
            "@TrailManifest(app: \"a\")\nenum D {\n    @Route(\"a://home\", tab: true) case home\n\(indented(cases))\n}",
            expandedSource: "enum D {\n    case home\n\(indented(expanded))\n}",
            diagnostics: [
                DiagnosticSpec(id: .init(domain: "CrashtrailMacros", id: id), message: message, line: line, column: column)
            ],
            line: sourceLine)
    }

    @Test("A case without @Route")
    func missingRoute() {
        refuses(
            "case settings", expanded: "case settings", id: "missing-route",
            message:
                "case 'settings': has no @Route; every case is a destination of the manifest, so give it one (@Route(nil) for a screen without a deep link)",
            line: 4, column: 10)
    }

    @Test("A placeholder naming no label of the case")
    func placeholderNamesNoLabel() {
        refuses(
            #"@Route("a://orders/{order.rawValue}") case order(id: String)"#, expanded: "case order(id: String)",
            id: "unknown-placeholder-label",
            message: "case 'order': placeholder {order.rawValue} names 'order', which is no label of the case; its labels are id",
            line: 4, column: 12)
    }

    @Test("An unlabeled value's placeholder out of range")
    func unlabeledPlaceholder() {
        refuses(
            #"@Route("a://page/{_1:int}") case page(Int)"#, expanded: "case page(Int)", id: "unknown-placeholder-label",
            message: "case 'page': placeholder {_1:int} names '_1', which is no label of the case; its labels are _0", line: 4,
            column: 12)
    }

    @Test("An integer placeholder on a label that is no integer")
    func intOnString() {
        refuses(
            #"@Route("a://item/{id:int}") case item(id: String)"#, expanded: "case item(id: String)",
            id: "int-placeholder-not-integer",
            message: "case 'item': placeholder {id:int} declares an integer but 'id' is String; write {id} for a string", line: 4,
            column: 12)
    }

    @Test("A string placeholder on an integer, which would print no URL")
    func integerWithoutInt() {
        refuses(
            #"@Route("a://page/{_0}") case page(Int)"#, expanded: "case page(Int)", id: "integer-placeholder-without-int",
            message:
                "case 'page': placeholder {_0} holds a string but '_0' is Int, so the case would have no URL; write {_0:int}",
            line: 4, column: 12)
    }

    @Test("A redact entry naming no label")
    func redactNamesNoLabel() {
        refuses(
            #"@Route("a://search?q={text}", redact: ["query"]) case search(text: String)"#, expanded: "case search(text: String)",
            id: "redact-unknown-label",
            message: #"case 'search': redact names "query", which is no label of the case; its labels are text"#, line: 4,
            column: 44)
    }

    @Test("requires naming a condition no case provides")
    func unknownCondition() {
        refuses(
            #"@Route("a://me", requires: ["signedIn"]) case me"#, expanded: "case me", id: "unknown-condition",
            message:
                #"case 'me': requires "signedIn", which no case provides; declare it with 'provides: ["signedIn"]' on its flow case"#,
            line: 4, column: 33)
    }

    @Test("A tab root with associated values")
    func tabWithPayload() {
        refuses(
            #"@Route("a://item/{id}", tab: true) case item(id: String)"#, expanded: "case item(id: String)", id: "role-with-payload",
            message: "case 'item': is a tab root but has associated values (id); the Navigator creates it without any", line: 4,
            column: 34)
    }

    @Test("A flow with associated values")
    func flowWithPayload() {
        refuses(
            #"@Route("a://login/{_0}", presentation: .modal, provides: ["signedIn"]) case login(String)"#,
            expanded: "case login(String)", id: "role-with-payload",
            message: "case 'login': is a flow but has associated values (_0); the Navigator creates it without any", line: 4,
            column: 63)
    }

    @Test("A flow that is not presented modally")
    func flowNotModal() {
        refuses(
            #"@Route("a://login", provides: ["signedIn"]) case login"#, expanded: "case login", id: "flow-not-modal",
            message: "case 'login': is the flow of signedIn but is not presented modally; add 'presentation: .modal'", line: 4,
            column: 36)
    }

    @Test("A root beside tabs")
    func rootWithTabs() {
        refuses(
            #"@Route("a://start", root: true) case start"#, expanded: "case start", id: "root-with-tabs",
            message:
                "case 'start': is the root but case 'home' is a tab; an app with a tab bar launches on its first tab, so remove one",
            line: 4, column: 31)
    }

    @Test("An argument that is not a literal")
    func nonLiteralArgument() {
        refuses(
            #"@Route(Links.settings) case settings"#, expanded: "case settings", id: "non-literal-argument",
            message:
                "case 'settings': the URL template must be a string literal without interpolation, or nil; the macro reads the source, not values",
            line: 4, column: 12)
    }

    @Test("Cases inside #if, which would make the manifest depend on the build")
    func conditionalCases() {
        refuses(
            "#if DEBUG\n@Route(\"a://debug\") case debug\n#endif", expanded: "#if DEBUG\ncase debug\n#endif", id: "conditional-cases",
            message: "D declares cases inside #if; declare them outside, so that every build has one manifest", line: 4, column: 5)
    }

    @Test("An enum with no tab and no root")
    func missingLaunch() {
        MacroAssertion.expand(
            "@TrailManifest(app: \"a\")\nenum D {\n    @Route(\"a://home\") case home\n}",
            expandedSource: "enum D {\n    case home\n}",
            diagnostics: [
                DiagnosticSpec(
                    id: .init(domain: "CrashtrailMacros", id: "missing-launch"),
                    message:
                        "D has no tab and no root; mark its tab roots with 'tab: true', or the destination shown at launch with 'root: true'",
                    line: 1, column: 1)
            ])
    }

    @Test("@TrailManifest on a struct")
    func notAnEnum() {
        MacroAssertion.expand(
            "@TrailManifest(app: \"a\")\nstruct D {}", expandedSource: "struct D {}",
            diagnostics: [
                DiagnosticSpec(
                    id: .init(domain: "CrashtrailMacros", id: "not-an-enum"),
                    message: "@TrailManifest applies to an enum whose cases are the app's destinations", line: 1, column: 1)
            ])
    }
}
