/// What the crash was: exception type and code, signal, and the reason text.
public struct ExceptionInfo: Hashable, Sendable {
    /// The exception type: `EXC_BAD_ACCESS`, `NSInvalidArgumentException`, and so on.
    public var type: String?
    /// The exception code as the payload writes it (`KERN_INVALID_ADDRESS`, `0x1, 0x1049…`).
    public var code: String?
    /// The signal: `SIGSEGV`, `SIGABRT`, and so on.
    public var signal: String?
    /// The reason or message.
    public var reason: String?

    public init(type: String? = nil, code: String? = nil, signal: String? = nil, reason: String? = nil) {
        self.type = type
        self.code = code
        self.signal = signal
        self.reason = reason
    }
}
