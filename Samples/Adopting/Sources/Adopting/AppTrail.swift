public import CrashtrailCore
public import CrashtrailRecording
public import Foundation

// The reporters' SDKs where they are there (Tools/ios-lane.sh); ReporterStandIns.swift stands in for each elsewhere.
#if canImport(SentrySwift)
import SentrySwift  // sentry-cocoa built from source (its SentrySPM product)
#elseif canImport(Sentry)
import Sentry
#endif
#if canImport(FirebaseCrashlytics)
import FirebaseCrashlytics
#endif
#if canImport(KSCrashRecording)
import KSCrashRecording
#endif

/// docs/ADOPTING.md, steps 3 and 5: what the app does once, at launch.
@MainActor
public final class AppTrail {
    public let recorder: TrailRecorder
    /// The previous session's trail, to upload: a crashed session's joins its crash report (which may come before or
    /// after it); of the sessions that did not crash, a sampled share is sent for `crashtrail paths --rate`.
    public let previousTrail: Trail?

    public init(folder: URL, version: String, build: String) throws {
        // Step 3: start the recorder, recovering the previous session's journal first.
        let manifest = try AppDestination.trailManifest()
        let journal = folder.appendingPathComponent("crashtrail.ctj")
        let previous = try? TrailJournal.recover(at: journal)
        previousTrail =
            SentrySDK.lastRunStatus == .didCrash
            ? previous?.trail : previous?.sessionTrail(crashReported: false, sampleRate: 0.1)
        let session = Trail.Session(
            id: UUID().uuidString, started: Timestamp.rfc3339(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)),
            pid: Int64(ProcessInfo.processInfo.processIdentifier))
        recorder = TrailRecorder(
            manifest: manifest, app: Trail.AppInfo(bundleID: "com.example.shop", version: version, build: build),
            session: session, redactionKey: try RedactionKey.loadOrCreate(at: folder.appendingPathComponent("crashtrail.key")))
        try? recorder.startJournal(at: journal)  // a locked device is retried at each step

        // Step 5: hand the session to the crash reporter, so its crash joins this trail.
        recorder.handSession(to: .sentry) { key, value in
            SentrySDK.configureScope { scope in scope.setTag(value: value, key: key) }
        }
        recorder.handSession(to: .crashlytics) { key, value in
            Crashlytics.crashlytics().setCustomValue(value, forKey: key)
        }
        recorder.handSession(to: .kscrash) { key, value in
            KSCrash.shared.userInfo = (KSCrash.shared.userInfo ?? [:]).merging([key: value]) { _, new in new }
        }
    }
}
