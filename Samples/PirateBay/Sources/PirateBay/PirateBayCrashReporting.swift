public import CrashtrailCore
public import CrashtrailRecording
public import Foundation

/// How the PirateBay app wires crashtrail into its crash reporting, once, at launch.
///
/// 1. Recover the previous session's journal: if that session crashed or was killed, its trail is ready to
///    attach to the report the crash reporter sends now (or to write beside an `.ips` as a sidecar `.ctr`).
/// 2. Record this session: every Navigator step goes to the journal before the Navigator's call returns, and the
///    trail is handed to the crash reporter's SDK through a sink.
///
/// ```swift
/// let reporting = try PirateBayCrashReporting(folder: applicationSupport, version: "3.1.0", build: "412") { text in
///     SentrySDK.configureScope { $0.setContext(value: ["trail": text], key: "crashtrail") }
/// }
/// if let previous = reporting.previousSession { upload(previous.trail) }
/// try reporting.navigator.push(PirateBayDestination.item(id: "L-42"))
/// ```
@MainActor
public final class PirateBayCrashReporting {
    /// The app's Navigator: navigate with it, and every step is recorded.
    public let navigator: Navigator
    /// The recorder keeping this session's trail in the journal.
    public let recorder: TrailRecorder
    /// The previous session's trail, recovered from its journal; nil on the first launch.
    public let previousSession: RecoveredJournal?
    /// Why the previous journal could not be recovered, if it could not.
    public let previousSessionError: JournalError?

    /// The journal file in `folder`.
    public static func journalURL(in folder: URL) -> URL { folder.appendingPathComponent("crashtrail.ctj") }

    /// Recovers the previous session, then starts recording this one.
    /// - Parameters:
    ///   - folder: a folder the app keeps between launches (Application Support); the journal and the redaction
    ///     key live there.
    ///   - version: the app's version.
    ///   - build: the app's build.
    ///   - session: this session (a new UUID, now, this process's pid by default).
    ///   - clock: milliseconds since the session started (the Navigator's monotonic clock by default).
    ///   - setTrail: hands the `ct1:` text to the crash reporter (a Sentry context, KSCrash `user.crashtrail`).
    /// - Throws: what reading the manifest or starting the journal throws.
    public init(
        folder: URL, version: String, build: String, session: Trail.Session? = nil, clock: (() -> Int64)? = nil,
        setTrail: @escaping @Sendable (String) -> Void
    ) throws {
        let manifest = try PirateBay.manifest()
        let journal = Self.journalURL(in: folder)
        if FileManager.default.fileExists(atPath: journal.path) {
            do {
                previousSession = try TrailJournal.recover(at: journal)
                previousSessionError = nil
            } catch {
                previousSession = nil
                previousSessionError = error
            }
        } else {
            previousSession = nil
            previousSessionError = nil
        }
        let session =
            session
            ?? Trail.Session(
                id: UUID().uuidString, started: ISO8601DateFormatter().string(from: Date()),
                pid: Int64(ProcessInfo.processInfo.processIdentifier))
        navigator = Navigator(manifest: manifest, clock: clock ?? Navigator.monotonicClock())
        recorder = TrailRecorder(
            navigator: navigator, app: Trail.AppInfo(bundleID: PirateBay.bundleID, version: version, build: build),
            session: session, redactionKey: try RedactionKey.loadOrCreate(at: folder.appendingPathComponent("crashtrail.key")))
        try recorder.startJournal(at: journal)
        recorder.addSink(.text(setTrail))
    }
}
