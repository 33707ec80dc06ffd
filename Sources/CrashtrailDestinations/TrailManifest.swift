public import CrashtrailCore

/// Derives the app's manifest from a destination enum: every case is a destination, declared with ``Route(_:presentation:requires:gate:redact:screens:tab:root:provides:)``,
/// in case order; the enum gains ``TrailDestination`` with the document.
///
/// Problems the source shows fail the build with the case named: a case without `@Route`, a placeholder naming no
/// label of its case, `{x:int}` on a label that is no integer (or `{x}` on one that is), a `redact` entry naming no
/// label or placeholder, `requires` naming a condition no case provides, a tab root, root or flow with associated
/// values, a flow that is not modal, no tab and no root, and arguments that are not literals.
///
/// - Parameters:
///   - app: the app's bundle ID.
///   - modalTransition: how long a modal present or dismiss lasts, in milliseconds; 0 means no collisions.
@attached(extension, conformances: TrailDestination, names: named(trailManifestDocument))
public macro TrailManifest(app: String, modalTransition: Int = 500) =
    #externalMacro(module: "CrashtrailMacrosPlugin", type: "TrailManifestPluginMacro")

/// Declares a case of a ``TrailManifest(app:modalTransition:)`` enum as a destination of the manifest.
///
/// ```swift
/// @Route("piratebay://search?q={text}", redact: ["text"]) case search(text: String)
/// @Route("piratebay://login", presentation: .modal, provides: ["signedIn"]) case login
/// ```
///
/// It expands to nothing; the enum's macro reads it.
/// - Parameters:
///   - url: the deep-link template (`{label}`, `{label:int}`, `{_0}` for an unlabeled value, `{id.rawValue}` into a
///     nested value); nil for a screen without a deep link.
///   - presentation: `.modal` for a destination presented over the app.
///   - requires: conditions checked in order before the destination opens; each is provided by some case.
///   - gate: whether opening it closes the way back (a gate resets the stacks).
///   - redact: payload paths whose values never leave the device; each names a placeholder or the start of one.
///   - screens: the names a crash reporter's breadcrumbs give this screen (SPEC section 15).
///   - tab: whether it is a tab root; tabs are in case order.
///   - root: whether it is the launch destination of an app without tabs.
///   - provides: the conditions this case is the flow of: presented (modally) when the condition is missing.
@attached(peer)
public macro Route(
    _ url: String? = nil,
    presentation: Manifest.Presentation = .push,
    requires: [String] = [],
    gate: Bool = false,
    redact: [String] = [],
    screens: [String] = [],
    tab: Bool = false,
    root: Bool = false,
    provides: [String] = []
) = #externalMacro(module: "CrashtrailMacrosPlugin", type: "RoutePluginMacro")
