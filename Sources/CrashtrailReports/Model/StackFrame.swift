/// One frame of the crashed thread, as the normalized report keeps it.
public struct StackFrame: Hashable, Sendable {
    /// The binary image's name (`PirateBay`, `libobjc.A.dylib`), when known.
    public var image: String?
    /// The symbol, when the payload names one: demangled, for a mangled Swift or C++ name.
    public var symbol: String?
    /// The symbol as the payload wrote it, when that differs from `symbol` (a mangled name); else nil.
    public var rawSymbol: String?
    /// The offset of the instruction into its image, when the payload gives it; independent of the ASLR slide.
    public var offset: Int64?
    /// Whether the frame is in the app's own code rather than a system or vendor library.
    public var inApp: Bool
    /// The source file, when a debug file names one for the frame's address (SPEC section 16).
    public var file: String?
    /// The source line, when a debug file names one.
    public var line: Int?
    /// Whether the function was inlined into the next frame's at this address: a frame a debug file adds.
    public var inlined: Bool
    /// The offset of the instruction into its function (Apple's `symbol + 52`), when a debug file gave the function's
    /// start.
    public var functionOffset: Int64?

    public init(
        image: String?, symbol: String?, offset: Int64?, inApp: Bool, rawSymbol: String? = nil, file: String? = nil,
        line: Int? = nil, inlined: Bool = false, functionOffset: Int64? = nil
    ) {
        self.image = image
        self.symbol = symbol
        self.rawSymbol = rawSymbol
        self.offset = offset
        self.inApp = inApp
        self.file = file
        self.line = line
        self.inlined = inlined
        self.functionOffset = functionOffset
    }

    /// Whether a debug file named the frame's function.
    public var isSymbolicated: Bool { file != nil || inlined }
}
