import CrashtrailMacroExpansion
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// swift-syntax's expansion assertion, reporting to Swift Testing, with the crashtrail macros.
enum MacroAssertion {
    static let macros: [String: MacroSpec] = [
        "TrailManifest": MacroSpec(type: TrailManifestMacro.self, conformances: ["TrailDestination"]),
        "Route": MacroSpec(type: RouteMacro.self),
    ]

    /// Expands `source` and checks the expansion and the diagnostics.
    static func expand(
        _ source: String, expandedSource: String, diagnostics: [DiagnosticSpec] = [], fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        assertMacroExpansion(
            source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { failure in
                Issue.record(
                    Comment(rawValue: failure.message),
                    sourceLocation: SourceLocation(
                        fileID: failure.location.fileID, filePath: failure.location.filePath, line: failure.location.line,
                        column: failure.location.column))
            }, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
