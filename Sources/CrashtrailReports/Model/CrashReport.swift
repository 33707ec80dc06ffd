import CrashtrailCore

/// A crash normalized from any supported format (SPEC section 8): what `crashtrail show` prints.
public struct CrashReport: Hashable, Sendable {
    /// The app that crashed.
    public struct App: Hashable, Sendable {
        public var bundleID: String?
        public var version: String?
        public var build: String?

        public init(bundleID: String? = nil, version: String? = nil, build: String? = nil) {
            self.bundleID = bundleID
            self.version = version
            self.build = build
        }
    }

    /// The operating system it ran on.
    public struct OS: Hashable, Sendable {
        public var name: String?
        public var version: String?

        public init(name: String? = nil, version: String? = nil) {
            self.name = name
            self.version = version
        }
    }

    /// The stored ID: the payload's own identifier, a SHA-256, or `ID~` plus a hash for a clashing payload.
    public var id: String
    public var format: ReportFormat
    public var app: App
    public var os: OS
    /// The device model string (`iPhone14,2`).
    public var device: String?
    /// When it crashed, RFC 3339 in UTC, when the payload says.
    public var time: String?
    public var exception: ExceptionInfo
    /// The crashed thread's frames, top first.
    public var frames: [StackFrame]
    /// The uncaught language exception's own backtrace, top first, when the payload gives one (an `.ips`
    /// `lastExceptionBacktrace`, a text report's `Last Exception Backtrace:`); the signature names its frames.
    public var exceptionBacktrace: [StackFrame]
    /// The crashed thread's index among the process's threads, when the payload says.
    public var crashedThread: Int?
    /// The binary images the frames and the exception backtrace name, in the order they are first named.
    public var binaryImages: [BinaryImage]
    /// The crash group key (see `CrashSignature` in CrashtrailCollector).
    public var signature: String
    public var trailInfo: TrailInfo

    public init(
        id: String, format: ReportFormat, app: App, os: OS, device: String?, time: String?, exception: ExceptionInfo,
        frames: [StackFrame], exceptionBacktrace: [StackFrame] = [], crashedThread: Int? = nil, binaryImages: [BinaryImage] = [],
        signature: String, trailInfo: TrailInfo
    ) {
        self.crashedThread = crashedThread
        self.binaryImages = binaryImages
        self.exceptionBacktrace = exceptionBacktrace
        self.id = id
        self.format = format
        self.app = app
        self.os = os
        self.device = device
        self.time = time
        self.exception = exception
        self.frames = frames
        self.signature = signature
        self.trailInfo = trailInfo
    }
}
