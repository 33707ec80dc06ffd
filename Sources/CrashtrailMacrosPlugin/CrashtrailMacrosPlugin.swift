import CrashtrailMacroExpansion
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin that provides `@TrailManifest` and `@Route` to `CrashtrailDestinations`.
///
/// The expansions live in `CrashtrailMacroExpansion`, which the tests link; the compiler names a macro's type by the
/// plugin's module, so each has its entry point here.
@main
struct CrashtrailMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TrailManifestPluginMacro.self, RoutePluginMacro.self]
}

/// `@TrailManifest`'s entry point: ``TrailManifestMacro``.
public struct TrailManifestPluginMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try TrailManifestMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@Route`'s entry point: ``RouteMacro``.
public struct RoutePluginMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try RouteMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
