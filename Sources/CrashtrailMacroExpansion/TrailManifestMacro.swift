import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TrailManifest`: conforms a destination enum to `TrailDestination` with the manifest document derived from its
/// cases and their `@Route` annotations, in case order; refuses, at build time and naming the case, what the
/// manifest could not describe.
public struct TrailManifestMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let enumDeclaration = declaration.as(EnumDeclSyntax.self) else {
            context.diagnose(
                Diagnostic(
                    node: node,
                    message: TrailManifestDiagnostic(
                        code: "not-an-enum", message: "@TrailManifest applies to an enum whose cases are the app's destinations")))
            return []
        }
        var findings = Findings()
        let destinations = DestinationEnum(attribute: node, declaration: enumDeclaration, findings: &findings)
        guard findings.isEmpty else {
            for diagnostic in findings.diagnostics { context.diagnose(diagnostic) }
            return []
        }
        let document = ManifestDocumentWriter(destinations: destinations).document
        let conformance = protocols.isEmpty ? "" : ": " + protocols.map(\.trimmedDescription).joined(separator: ", ")
        let declarationText = """
            extension \(type.trimmedDescription)\(conformance) {
                /// The manifest document derived from the cases and their `@Route` annotations, in case order.
                \(accessPrefix(of: enumDeclaration))static let trailManifestDocument: String = \(rawStringLiteral(document, indentation: "    "))
            }
            """
        let extensionDeclaration = try ExtensionDeclSyntax("\(raw: declarationText)")
        return [extensionDeclaration]
    }

    /// `public ` or `package ` when the enum is, so the conformance is as visible as the enum.
    private static func accessPrefix(of declaration: EnumDeclSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// `text` as a multi-line raw string literal, with enough `#` that nothing in it reads as a delimiter or escape.
    static func rawStringLiteral(_ text: String, indentation: String) -> String {
        var longest = 0
        var run = -1
        for character in text {
            if character == "#" {
                if run >= 0 { run += 1 }
            } else {
                run = character == "\"" || character == "\\" ? 0 : -1
            }
            longest = max(longest, run)
        }
        let hashes = String(repeating: "#", count: longest + 1)
        // The line break before the closing delimiter is not part of the string, so a text that ends with one
        // ends with an empty line here.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indentation + $0 }
        return "\(hashes)\"\"\"\n" + lines.joined(separator: "\n") + "\n\(indentation)\"\"\"\(hashes)"
    }
}
