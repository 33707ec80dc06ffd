import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides `@TrailManifest` and `@Route` to `CrashtrailDestinations`.
@main
struct CrashtrailMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TrailManifestMacro.self, RouteMacro.self]
}
