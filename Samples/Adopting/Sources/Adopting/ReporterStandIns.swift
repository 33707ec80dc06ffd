// Stand-ins for the three crash reporters' SDK calls that docs/ADOPTING.md shows, so its snippets compile here,
// where no reporter SDK is installed. They declare only the calls the snippets make, with each SDK's signatures:
// Sentry's `SentrySDK.configureScope(_:)`, `SentrySDK.crashedLastRun` and `Scope.setTag(value:key:)`, Firebase's
// `Crashlytics.crashlytics()` and `setCustomValue(_:forKey:)`, and KSCrash's `KSCrash.shared.userInfo`. An app
// imports the real SDKs instead. Never shipped: this target is a compiled copy of the documentation.
#if !canImport(Sentry)
public final class Scope: @unchecked Sendable {
    public private(set) var tags: [String: String] = [:]
    public func setTag(value: String, key: String) { tags[key] = value }
}

public enum SentrySDK {
    static let scope = Scope()
    public static func configureScope(_ callback: @escaping (Scope) -> Void) { callback(scope) }
    /// Whether the previous run of the app crashed, as Sentry's SDK knows it at launch.
    nonisolated(unsafe) public static var crashedLastRun = false
}
#endif

#if !canImport(FirebaseCrashlytics)
public final class Crashlytics: @unchecked Sendable {
    static let shared = Crashlytics()
    public private(set) var keys: [String: Any] = [:]
    public static func crashlytics() -> Crashlytics { shared }
    public func setCustomValue(_ value: Any?, forKey key: String) { keys[key] = value }
}
#endif

#if !canImport(KSCrashRecording)
public final class KSCrash: @unchecked Sendable {
    public static let shared = KSCrash()
    public var userInfo: [String: Any]?
}
#endif
