public import CrashtrailAdapters
internal import CrashtrailCore
public import CrashtrailRecording
public import Foundation

/// What the sample app starts at launch: the recorder of this session, journaled in the app's support folder, and the
/// settler the glue reports to.
@MainActor
public final class ShopSession {
    public let recorder: TrailRecorder
    public let settler: ScreenSettler
    public let account = ShopAccount()
    private let started = Date()

    /// Starts recording, recovering nothing: the sample keeps no previous session.
    /// - Throws: `ManifestError` when the enum's manifest breaks a rule; `RedactionKeyError` when the key cannot be
    ///   made.
    public init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = Trail.Session(
            id: UUID().uuidString, started: Timestamp.rfc3339(milliseconds: Int64(started.timeIntervalSince1970 * 1000)),
            pid: Int64(ProcessInfo.processInfo.processIdentifier))
        let recorder = TrailRecorder(
            manifest: try ShopDestination.trailManifest(),
            app: Trail.AppInfo(bundleID: "com.example.shopapp", version: "1.0", build: "1"), session: session,
            redactionKey: try RedactionKey.loadOrCreate(at: folder.appendingPathComponent("crashtrail.key")))
        try? recorder.startJournal(at: folder.appendingPathComponent("crashtrail.ctj"))
        self.recorder = recorder
        settler = ScreenSettler(
            recorder: recorder, conditions: { [account] in account.isSignedIn ? ["signedIn"] : [] },
            clock: { [started] in Int64(Date().timeIntervalSince(started) * 1000) })
    }

    /// The folder the sample keeps its journal in.
    public static var defaultFolder: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0].appendingPathComponent("crashtrail")
    }
}

/// The user's account: whether they signed in, the one condition of the manifest.
@MainActor
public final class ShopAccount {
    public var isSignedIn = false
}
