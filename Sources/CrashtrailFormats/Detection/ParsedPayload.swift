import CrashtrailCore
import CrashtrailReports
import Foundation

/// What a format parser pulls out of one payload: the normalized fields, the payload's own identifier, its
/// trail (still encoded) and what a separate trail file is joined by.
package struct ParsedPayload: Sendable {
    package var format: ReportFormat
    /// The payload's own identifier (SPEC section 8), normalized; nil when it has none.
    ///
    /// An empty or blank identifier (`"incident_id": ""`) counts as none, so the report is named by its digest instead.
    package var payloadID: String? {
        didSet { payloadID = Self.usable(payloadID) }
    }
    package var app: CrashReport.App
    package var os: CrashReport.OS
    package var device: String?
    /// RFC 3339 UTC.
    package var time: String?
    package var exception: ExceptionInfo
    package var frames: [StackFrame]
    /// The uncaught language exception's own backtrace, top first, when the payload gives one apart from the crashed
    /// thread (an `.ips` `lastExceptionBacktrace`, a text report's `Last Exception Backtrace:`).
    package var exceptionFrames: [StackFrame] = []
    /// The crashed thread's index among the process's threads, when the payload says.
    package var crashedThread: Int?
    /// The binary images the payload describes; the processor keeps those the frames name.
    package var binaryImages: [BinaryImage] = []
    /// The embedded trail, when the payload carries one.
    package var trail: TrailCarrier?
    /// The screens the reporter's own breadcrumbs saw, oldest first, for inferring a trail when the payload carries
    /// none (SPEC section 15).
    package var sightings: [ScreenSighting] = []
    /// The process ID, for joining a separate trail file.
    package var pid: Int64?
    /// When the process launched, in milliseconds since 1970 UTC, for joining a separate trail file.
    package var launchTime: Int64?
    /// The recorder's session ID the payload carries (``SessionCarrier``), which joins the trail of that session.
    package var sessionID: String?
    /// The part of the input that is this payload's own bytes, when the input holds several (an envelope's
    /// event item); its SHA-256 is the ID of a payload without one.
    package var identityRange: Range<Int>?
    /// For a payload that holds several crashes named by their place (a MetricKit payload's crash diagnostics), this
    /// one's zero-based index: its ID is the payload's SHA-256, `.` and the index (SPEC section 8).
    package var diagnosticIndex: Int?

    package init(format: ReportFormat, payloadID: String? = nil) {
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
