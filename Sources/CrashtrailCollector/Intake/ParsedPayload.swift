import CrashtrailCore
import CrashtrailStore
import Foundation

/// What a format parser pulls out of one payload: the normalized fields, the payload's own identifier, its
/// trail (still encoded) and what a separate trail file is joined by.
public struct ParsedPayload: Sendable {
    public var format: ReportFormat
    /// The payload's own identifier (SPEC section 8), normalized; nil when it has none.
    ///
    /// An empty or blank identifier (`"incident_id": ""`) counts as none, so the report is named by its digest instead.
    public var payloadID: String? {
        didSet { payloadID = Self.usable(payloadID) }
    }
    public var app: CrashReport.App
    public var os: CrashReport.OS
    public var device: String?
    /// RFC 3339 UTC.
    public var time: String?
    public var exception: ExceptionInfo
    public var frames: [StackFrame]
    /// The uncaught language exception's own backtrace, top first, when the payload gives one apart from the crashed
    /// thread (an `.ips` `lastExceptionBacktrace`, a text report's `Last Exception Backtrace:`).
    public var exceptionFrames: [StackFrame] = []
    /// The crashed thread's index among the process's threads, when the payload says.
    public var crashedThread: Int?
    /// The binary images the payload describes; the processor keeps those the frames name.
    public var binaryImages: [BinaryImage] = []
    /// The embedded trail, when the payload carries one.
    public var trail: TrailCarrier?
    /// The screens the reporter's own breadcrumbs saw, oldest first, for inferring a trail when the payload carries
    /// none (SPEC section 15).
    public var sightings: [ScreenSighting] = []
    /// The process ID, for joining a separate trail file.
    public var pid: Int64?
    /// When the process launched, in milliseconds since 1970 UTC, for joining a separate trail file.
    public var launchTime: Int64?
    /// The part of the input that is this payload's own bytes, when the input holds several (an envelope's
    /// event item); its SHA-256 is the ID of a payload without one.
    public var identityRange: Range<Int>?
    /// For a payload that holds several crashes named by their place (a MetricKit payload's crash diagnostics), this
    /// one's zero-based index: its ID is the payload's SHA-256, `.` and the index (SPEC section 8).
    public var diagnosticIndex: Int?

    public init(format: ReportFormat, payloadID: String? = nil) {
        self.format = format
        self.payloadID = Self.usable(payloadID)
        self.app = CrashReport.App()
        self.os = CrashReport.OS()
        self.exception = ExceptionInfo()
        self.frames = []
    }

    private static func usable(_ id: String?) -> String? {
        guard let id, !id.allSatisfy(\.isWhitespace) else { return nil }
        return id
    }
}
