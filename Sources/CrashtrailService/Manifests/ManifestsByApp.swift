import CrashtrailCore
import CrashtrailReplay

/// The manifest of each app, chosen once per app from the manifests a command was given (as `ManifestSelection`
/// chooses), for operations that replay many stored trails.
struct ManifestsByApp {
    let manifests: [Manifest]
    private var chosen: [String: Manifest?] = [:]
    /// Warnings of the choices made, in the order they were made.
    private(set) var warnings: [String] = []

    init(_ manifests: [Manifest]) {
        self.manifests = manifests
    }

    /// The manifest for `app`, or nil when none of the given manifests can serve it.
    mutating func manifest(for app: String) -> Manifest? {
        if let known = chosen[app] { return known }
        let selection = try? ManifestSelection(choosingFrom: manifests, forApp: app)
        chosen[app] = selection?.manifest
        warnings += selection?.warnings ?? []
        return selection?.manifest
    }
}
