// Stand-ins for the three crash reporters' SDK calls that docs/ADOPTING.md shows, so its snippets compile here,
// where no reporter SDK is installed. They declare only the calls the snippets make, as each SDK declares them:
// Sentry's `SentrySDK.configureScope(_:)`, `SentrySDK.lastRunStatus` and `Scope.setTag(value:key:)` (sentry-cocoa
// 9), Firebase's `Crashlytics.crashlytics()` and `setCustomValue(_:forKey:)`, and KSCrash's `KSCrash.shared.userInfo`.
// An app imports the real SDKs instead. Tools/ios-lane.sh compiles these snippets against the real ones (their
// sources, or Crashlytics' public headers), where each stand-in is left out, and holds each public declaration here
// against the real one's symbol graph. Never shipped: this target is a compiled copy of the documentation.
import Foundation

#if !canImport(Sentry) && !canImport(SentrySwift)
/// Stand-in for sentry-cocoa's `Scope` (`SentryScope` in Objective-C).
public final class Scope: NSObject, @unchecked Sendable {
    /// The tags set.
    public private(set) var tags: [String: String] = [:]
    /// Sets the tag `key` to `value`.
    public func setTag(value: String, key: String) { tags[key] = value }
}

/// Stand-in for sentry-cocoa's `SentryLastRunStatus`: how the previous run of the app ended.
public enum SentryLastRunStatus: Int, Sendable {
    /// The SDK has not read its crash state yet.
    case unknown = 0
    /// The previous run did not end with a crash.
    case didNotCrash = 1
    /// The previous run ended with a crash.
    case didCrash = 2
}

/// Stand-in for sentry-cocoa 9's `SentrySDK`.
public final class SentrySDK: NSObject {
    static let scope = Scope()

    /// Runs `callback` with the current scope.
    public static func configureScope(_ callback: @escaping (Scope) -> Void) { callback(scope) }

    /// How the previous run of the app ended (sentry-cocoa 9; `crashedLastRun` is deprecated for it, and gone in 10).
    public static var lastRunStatus: SentryLastRunStatus { .unknown }
}
#endif

#if !canImport(FirebaseCrashlytics)
/// Stand-in for Firebase's `Crashlytics` (`FIRCrashlytics` in Objective-C).
public final class Crashlytics: NSObject, @unchecked Sendable {
    static let shared = Crashlytics()
    private(set) var keys: [String: Any] = [:]

    /// The shared instance.
    public static func crashlytics() -> Crashlytics { shared }
    /// Sets the custom key `key` to `value`.
    public func setCustomValue(_ value: Any?, forKey key: String) { keys[key] = value }
}
#endif

#if !canImport(KSCrashRecording)
/// Stand-in for KSCrash's `KSCrash`.
public final class KSCrash: NSObject, @unchecked Sendable {
    /// The shared instance.
    public static let shared = KSCrash()
    /// The user data every report records.
    public var userInfo: [String: Any]?
}
#endif
