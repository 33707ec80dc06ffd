import CrashtrailCore
import CrashtrailDestinations
import CrashtrailRecording

/// The app's screens: the manifest is derived from the enum (SPEC section 18).
@TrailManifest(app: "com.example.consumer")
public enum AppDestination: Codable, Hashable, Sendable {
    @Route("consumer://home", root: true) case home
    @Route("consumer://item/{id}") case item(id: String)
}

/// Hands the session of a recorder to the crash reporter, as an app does at launch.
@MainActor
public func handOver(_ recorder: TrailRecorder, set: (String, String) -> Void) {
    recorder.handSession(to: .sentry, set)
}
