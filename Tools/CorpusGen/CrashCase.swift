import CrashtrailCore

/// One generated crash: who, where, when, what, and its trail.
struct CrashCase {
    var id: String
    var bundleID = "com.example.piratebay"
    var version: String
    var build: String
    var osName = "iOS"
    var osVersion: String
    var device: String
    /// Milliseconds since 1970 UTC.
    var crashTime: Int64
    var launchTime: Int64
    var pid: Int64
    var kind: CrashKind
    /// The app image's load address; it moves with the slide, so frame addresses differ from crash to crash.
    var slide: UInt64
    var trail: Trail?
}
