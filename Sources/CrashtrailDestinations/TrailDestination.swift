public import CrashtrailCore

/// An app's destination enum that carries its own manifest: `@TrailManifest` derives the document from the cases
/// and their `@Route` annotations, so the manifest and the enum cannot drift apart.
///
/// ```swift
/// @TrailManifest(app: "com.example.piratebay")
/// enum PirateBayDestination: Codable, Hashable {
///     @Route("piratebay://home", tab: true) case home
///     @Route("piratebay://orders/{id.rawValue}?tab=summary") case order(id: OrderID)
/// }
///
/// let manifest = try PirateBayDestination.trailManifest()
/// ```
///
/// The requirement is the document rather than a `Manifest`: a manifest is built only by reading a document, which
/// is what `crashtrail manifest add` uploads too, so the app and the server read the same bytes with the same checks.
public protocol TrailDestination: Codable {
    /// The YAML manifest document (SPEC section 3) the enum describes, destinations in case order.
    static var trailManifestDocument: String { get }
}

extension TrailDestination {
    /// The manifest read from ``trailManifestDocument``, with every check a manifest file gets.
    ///
    /// The macro refuses at build time what the syntax shows (an unknown label, a missing condition, a flow that is
    /// not modal…); what only the whole manifest shows (two templates that match the same links, an unreadable
    /// template) is refused here.
    /// - Parameter source: the name messages give the manifest; the enum's name by default.
    /// - Returns: the manifest.
    /// - Throws: `ManifestError` naming the destination and the problem.
    public static func trailManifest(source: String? = nil) throws(ManifestError) -> Manifest {
        try Manifest(yaml: trailManifestDocument, source: source ?? String(describing: Self.self))
    }
}
