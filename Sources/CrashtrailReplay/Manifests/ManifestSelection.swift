package import CrashtrailCore

/// Picks the manifest for a trail or report among the ones a command was given (SPEC section 3): the one
/// whose `app` is the bundle ID; with a single manifest, that one, with a warning when its `app` differs.
///
/// ```swift
/// let selection = try ManifestSelection(choosingFrom: manifests, forApp: trail.app.bundleID)
/// selection.warnings.forEach(printError)
/// ```
package struct ManifestSelection: Sendable {
    /// The manifest to use.
    package let manifest: Manifest
    /// What the caller should tell the user (the CLI prints these to standard error).
    package let warnings: [String]

    /// Chooses among `manifests` for the app `bundleID`.
    /// - Parameters:
    ///   - manifests: the manifests given, in the order given.
    ///   - bundleID: the trail's or report's bundle ID.
    /// - Throws: `ManifestSelectionError` when none was given, or several were and none is for `bundleID`.
    package init(choosingFrom manifests: [Manifest], forApp bundleID: String) throws(ManifestSelectionError) {
        guard let first = manifests.first else {
            throw ManifestSelectionError(
                .noManifest, app: bundleID,
                "no manifest was given; pass --manifest with the route manifest of \(bundleID) (a YAML or JSON file, or a folder of them)")
        }
        if manifests.count == 1 {
            self.manifest = first
            self.warnings =
                first.app == bundleID
                ? []
                : ["warning: the manifest \(first.source) is for \(first.app), but the trail is from \(bundleID); replaying with it anyway"]
            return
        }
        let matching = manifests.filter { $0.app == bundleID }
        guard let chosen = matching.first else {
            let given = manifests.map { "\($0.source) (\($0.app))" }.joined(separator: ", ")
            throw ManifestSelectionError(
                .noMatchingManifest, app: bundleID,
                "none of the \(manifests.count) manifests given is for \(bundleID): \(given); pass the manifest whose app is \(bundleID)")
        }
        self.manifest = chosen
        self.warnings =
            matching.count > 1
            ? ["warning: \(matching.count) manifests are for \(bundleID); using the first, \(chosen.source)"]
            : []
    }
}

/// Why no manifest could be chosen.
package struct ManifestSelectionError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// No manifest was given at all.
        package static let noManifest = Code(name: "no-manifest")
        /// Several were given and none is for the app.
        package static let noMatchingManifest = Code(name: "no-matching-manifest")
    }

    package var code: Code
    /// The bundle ID a manifest was needed for.
    package var app: String
    /// What is wrong and how to fix it.
    package var message: String

    /// An error about choosing a manifest for `app`.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - app: the bundle ID that needs a manifest.
    ///   - message: what is wrong and how to fix it.
    package init(_ code: Code, app: String, _ message: String) {
        self.code = code
        self.app = app
        self.message = message
    }

}
