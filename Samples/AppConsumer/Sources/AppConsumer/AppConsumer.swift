import CrashtrailCore
import CrashtrailRecording

/// Hands the session of a recorder to the crash reporter, as an app does at launch.
public func handOver(_ recorder: TrailRecorder, set: (String, String) -> Void) {
    recorder.handSession(to: .sentry, set)
}
