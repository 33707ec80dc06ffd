/// One frame of the crashed thread, as the normalized report keeps it.
public struct StackFrame: Hashable, Sendable {
    /// The binary image's name (`PirateBay`, `libobjc.A.dylib`), when known.
    public var image: String?
    /// The symbol, when the payload names one.
    public var symbol: String?
    /// The offset of the instruction into its image, when the payload gives it; independent of the ASLR slide.
    public var offset: Int64?
    /// Whether the frame is in the app's own code rather than a system or vendor library.
    public var inApp: Bool

    public init(image: String?, symbol: String?, offset: Int64?, inApp: Bool) {
        self.image = image
        self.symbol = symbol
        self.offset = offset
        self.inApp = inApp
    }
}
