/// A session's navigation steps, with the state before the first kept step and, optionally, the state the app
/// saw at the crash (SPEC section 5).
public struct Trail: Hashable, Sendable {
    /// The only format version this build reads and writes.
    public static let currentVersion: Int64 = 1

    public var version: Int64
    public var app: AppInfo
    public var session: Session
    /// The state before the first kept step; nil means the launch state.
    public var base: NavigationState?
    /// Steps a bounded recorder let go from the front.
    public var dropped: Int64
    public var steps: [Step]
    /// The state the app itself saw at the crash, when it was stamped.
    public var final: NavigationState?

    public init(
        version: Int64 = Trail.currentVersion, app: AppInfo, session: Session, base: NavigationState? = nil,
        dropped: Int64 = 0, steps: [Step], final: NavigationState? = nil
    ) {
        self.version = version
        self.app = app
        self.session = session
        self.base = base
        self.dropped = dropped
        self.steps = steps
        self.final = final
    }

    /// The app that recorded the trail.
    public struct AppInfo: Hashable, Sendable {
        public var bundleID: String
        public var version: String
        public var build: String

        public init(bundleID: String, version: String, build: String) {
            self.bundleID = bundleID
            self.version = version
            self.build = build
        }
    }

    /// The process session the trail belongs to.
    public struct Session: Hashable, Sendable {
        /// A UUID string.
        public var id: String
        /// When the session started, RFC 3339 (`2026-11-02T14:45:05Z`), as the app wrote it.
        public var started: String
        public var pid: Int64

        public init(id: String, started: String, pid: Int64) {
            self.id = id
            self.started = started
            self.pid = pid
        }
    }
}
