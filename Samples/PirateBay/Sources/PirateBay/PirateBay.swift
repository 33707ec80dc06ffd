public import CrashtrailCore
public import Foundation

/// The PirateBay sample app's route manifest and identity.
public enum PirateBay {
    /// The app's bundle ID.
    public static let bundleID = "com.example.piratebay"

    /// The manifest file shipped with the sample (`piratebay.yml`).
    public static var manifestURL: URL? {
        Bundle.module.url(forResource: "piratebay", withExtension: "yml")
    }

    /// The sample's route manifest.
    /// - Throws: `ManifestError` if the bundled manifest is missing or invalid.
    public static func manifest() throws(ManifestError) -> Manifest {
        guard let url = manifestURL else {
            throw ManifestError(.unreadable, source: "piratebay.yml", "the sample's manifest is missing from its bundle")
        }
        return try Manifest(contentsOf: url)
    }
}
