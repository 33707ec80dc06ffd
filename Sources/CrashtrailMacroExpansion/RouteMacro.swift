import SwiftSyntax
import SwiftSyntaxMacros

/// The `@Route` macro, which declares a case's URL template and how the case is shown.
///
/// It expands to nothing; `@TrailManifest` reads it from the enum's cases.
public struct RouteMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
