/// What the crash was: exception type and code, signal, and the reason text; the Mach exception and the uncaught
/// language exception apart.
public struct ExceptionInfo: Hashable, Sendable {
    /// An uncaught language exception: an `NSException`, a C++ exception, a Swift or other runtime error.
    public struct Language: Hashable, Sendable {
        /// Its name or type (`NSInvalidArgumentException`, `std::runtime_error`).
        public var name: String
        /// Its reason or message, when the payload gives one.
        public var reason: String?

        public init(name: String, reason: String? = nil) {
            self.name = name
            self.reason = reason
        }
    }

    /// What the crash is known by: the language exception's name when there is one (`NSInvalidArgumentException`),
    /// else the Mach exception type (`EXC_BAD_ACCESS`) or the signal.
    public var type: String?
    /// The exception code as the payload writes it (`KERN_INVALID_ADDRESS`, `0x1, 0x1049…`).
    public var code: String?
    /// The signal: `SIGSEGV`, `SIGABRT`, and so on.
    public var signal: String?
    /// The reason or message.
    public var reason: String?
    /// The Mach exception type (`EXC_CRASH`, `EXC_BAD_ACCESS`), when the payload gives one; for an uncaught language
    /// exception it is the abort it ended in.
    public var mach: String?
    /// The uncaught language exception, when the crash is one.
    public var language: Language?

    public init(
        type: String? = nil, code: String? = nil, signal: String? = nil, reason: String? = nil, mach: String? = nil,
        language: Language? = nil
    ) {
        self.type = type
        self.code = code
        self.signal = signal
        self.reason = reason
        self.mach = mach
        self.language = language
    }

    /// Whether `name` names a Mach exception, a signal or a termination rather than a language exception: `EXC_…`,
    /// `SIG…`, a number, `deadlock`, or a name with `Termination`, `Watchdog` or `Hang` in it (`MemoryTermination`,
    /// Sentry's `WatchdogTermination` and `App Hanging`).
    package static func isMachOrSignal(_ name: String) -> Bool {
        name.hasPrefix("EXC_") || name.hasPrefix("SIG") || name.allSatisfy(\.isNumber) || name == "deadlock"
            || ["Termination", "Watchdog", "watchdog", "Hang"].contains { name.contains($0) }
    }

    /// The exception with `mach` and `language` filled in where the payload did not say: a `type` that is a Mach
    /// exception is `mach`; a `type` that is not one, nor a signal or a termination (``isMachOrSignal(_:)``), under no
    /// signal or the `SIGABRT` an uncaught exception ends in, is the language exception's name, with `reason` as its
    /// reason.
    package func completed() -> ExceptionInfo {
        var result = self
        if result.mach == nil, let type, type.hasPrefix("EXC_") { result.mach = type }
        if result.language == nil, let type, !type.isEmpty, !Self.isMachOrSignal(type), signal == nil || signal == "SIGABRT" {
            result.language = Language(name: type, reason: reason)
        }
        return result
    }
}
