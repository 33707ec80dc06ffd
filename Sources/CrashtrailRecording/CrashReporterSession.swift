/// The crash reporters a session ID is handed to, and the key each carries it under (SPEC section 18).
///
/// A crash report that carries the recorder's session ID joins the trail of that very session, however long ago the
/// process started (iOS prewarms processes hours before the app runs) and whichever of the two reaches the
/// collector first. Hand it over once, at launch, before anything can crash:
///
/// ```swift
/// recorder.handSession(to: .sentry) { key, value in
///     SentrySDK.configureScope { $0.setTag(value: value, key: key) }
/// }
/// recorder.handSession(to: .crashlytics) { key, value in
///     Crashlytics.crashlytics().setCustomValue(value, forKey: key)
/// }
/// recorder.handSession(to: .kscrash) { key, value in
///     KSCrash.shared.userInfo = (KSCrash.shared.userInfo ?? [:]).merging([key: value]) { _, new in new }
/// }
/// ```
public enum CrashReporter: String, Sendable, Hashable, CaseIterable {
    /// Sentry: the tag `crashtrail.session` (a `crashtrail` context's `session` is read too).
    case sentry
    /// Firebase Crashlytics: the custom key `crashtrail.session`.
    case crashlytics
    /// KSCrash (and SentryCrash): the user-info key `crashtrail_session`, which reports carry as `user.crashtrail_session`.
    case kscrash

    /// The key the reporter carries the session ID under.
    public var sessionKey: String {
        switch self {
        case .sentry, .crashlytics: "crashtrail.session"
        case .kscrash: "crashtrail_session"
        }
    }
}

extension TrailRecorder {
    /// Hands this session's ID to a crash reporter, in one call: `set` is called once with the reporter's key and the
    /// ID, and stores them as the reporter's SDK does (a tag, a custom key, user info).
    /// - Parameters:
    ///   - reporter: the crash reporter the app uses.
    ///   - set: stores `value` under `key` in the reporter's SDK.
    public func handSession(to reporter: CrashReporter, _ set: (_ key: String, _ value: String) -> Void) {
        set(reporter.sessionKey, session.id)
    }
}
