// Stand-ins for the three crash reporters' SDK calls that docs/ADOPTING.md shows, so its snippets compile here,
// where no reporter SDK is installed. They declare only the calls the snippets make, with each SDK's signatures:
// Sentry's `SentrySDK.configureScope(_:)`, `SentrySDK.lastRunStatus` and `Scope.setTag(value:key:)` (sentry-cocoa
// 9), Firebase's `Crashlytics.crashlytics()` and `setCustomValue(_:forKey:)`, and KSCrash's `KSCrash.shared.userInfo`.
// An app imports the real SDKs instead; Tools/ios-lane.sh compiles these snippets against the real ones (their
// sources, or Crashlytics' public headers), where each stand-in is left out. Never shipped: this target is a
// compiled copy of the documentation.
#if !canImport(Sentry) && !canImport(SentrySwift)
public final class Scope: @unchecked Sendable {
    public private(set) var tags: [String: String] = [:]
    public func setTag(value: String, key: String) { tags[key] = value }
}

/// How the previous run of the app ended, as Sentry's SDK knows it at launch.
public enum SentryLastRunStatus: Int, Sendable {
    /// The SDK has not read its crash state yet.
    case unknown = 0
    /// The previous run did not end with a crash.
    case didNotCrash = 1
    /// The previous run ended with a crash.
    case didCrash = 2
}

public enum SentrySDK {
    static let scope = Scope()
    public static func configureScope(_ callback: @escaping (Scope) -> Void) { callback(scope) }
    /// How the previous run of the app ended (sentry-cocoa 9; `crashedLastRun` is deprecated for it, and gone in 10).
    nonisolated(unsafe) public static var lastRunStatus: SentryLastRunStatus = .unknown
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
