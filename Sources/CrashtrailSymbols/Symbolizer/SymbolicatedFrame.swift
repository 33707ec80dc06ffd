/// A function at an address, as a debug file names it: one of the frames an address becomes, the functions inlined
/// there first.
package struct SymbolicatedFrame: Hashable, Sendable {
    /// The function's linkage name, as the debug file gives it (`_ZN10crashtrail7fixture6Engine6igniteEi`, `$s3App...`).
    package var rawSymbol: String
    /// The source file, when the debug file has one for the address.
    package var file: String?
    /// The line, when the debug file has one.
    package var line: Int?
    /// Whether the function was inlined into the next frame's.
    package var inlined: Bool
    /// Where the function (or the inlined call) starts, in the debug file's addresses, when the debug file says.
    package var startAddress: UInt64?

    package init(rawSymbol: String, file: String? = nil, line: Int? = nil, inlined: Bool = false, startAddress: UInt64? = nil) {
        self.rawSymbol = rawSymbol
        self.file = file
        self.line = line
        self.inlined = inlined
        self.startAddress = startAddress
    }
}
