import SwiftDiagnostics
import SwiftSyntax

/// The build-time errors found while reading and checking an enum, each attached to the syntax it is about.
struct Findings {
    private(set) var diagnostics: [Diagnostic] = []

    var isEmpty: Bool { diagnostics.isEmpty }

    /// Records `message` at `node`.
    mutating func error(_ node: some SyntaxProtocol, _ message: TrailManifestDiagnostic) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message))
    }
}
