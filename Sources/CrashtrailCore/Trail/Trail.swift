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
        /// How the session ended, for the trail of a session sent after it ended (SPEC section 20); nil for the trail
        /// a crash report carries or joins.
        public var ended: Ending?
        /// The share of such sessions the app sends (`ended` set), so that the collector can scale its counts.
        public var sampleRate: SampleRate?

        public init(id: String, started: String, pid: Int64, ended: Ending? = nil, sampleRate: SampleRate? = nil) {
            self.id = id
            self.started = started
            self.pid = pid
            self.ended = ended
            self.sampleRate = sampleRate
        }

        /// How a session ended (SPEC section 20).
        public enum Ending: String, Sendable, Hashable, CaseIterable {
            /// The app crashed, and its crash reporter said so at the next launch.
            case crashed
            /// The process ended without running any code: the journal has no end and no crash was reported (the OS
            /// killed the app for memory or a watchdog, or the user force-quit it).
            case killed
            /// The app ended the session itself (it went to the background for good, or terminated).
            case exited
        }
    }

    /// A share of sessions, above 0 and at most 1, kept exactly as billionths (`0.25` is 250,000,000).
    ///
    /// The trail's JSON writes it as a decimal (`"sampleRate": 0.25`), the only fractional number a trail holds.
    public struct SampleRate: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// One whole, in billionths.
        public static let one: Int64 = 1_000_000_000
        /// The rate in billionths, 1 … 1,000,000,000.
        public let billionths: Int64

        /// A rate from billionths; nil unless it is above 0 and at most 1.
        public init?(billionths: Int64) {
            guard billionths > 0, billionths <= Self.one else { return nil }
            self.billionths = billionths
        }

        /// The rate nearest `value`; nil unless it is above 0 and at most 1.
        public init?(_ value: Double) {
            guard value.isFinite, value > 0, value <= 1 else { return nil }
            self.init(billionths: max(1, Int64((value * Double(Self.one)).rounded())))
        }

        /// The rate as a fraction.
        public var value: Double { Double(billionths) / Double(Self.one) }

        /// The weight of one sampled session: how many sessions it stands for.
        public var weight: Double { Double(Self.one) / Double(billionths) }

        /// The shortest decimal that reads back as this rate: `0.25`, `1`, `0.000000001`.
        public var description: String {
            let whole = billionths / Self.one
            var fraction = billionths % Self.one
            guard fraction != 0 else { return String(whole) }
            var digits = 9
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let text = String(fraction)
            return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
        }

        public static func < (lhs: SampleRate, rhs: SampleRate) -> Bool { lhs.billionths < rhs.billionths }
    }
}
