/// One architecture of a Mach-O file, as a debug file store keeps it: known by its UUID (`LC_UUID`).
package struct MachOSlice: Hashable, Sendable {
    /// What the slice holds for symbolication.
    package enum Kind: String, Hashable, Sendable {
        /// DWARF (a dSYM's companion file, or a binary built with it): functions, files, lines and inlined frames.
        case dwarf
        /// A symbol table only (an image that was not stripped): functions, without files or lines.
        case symbolTable = "symbol-table"
    }

    /// The build's UUID, lower-case with dashes (`8-4-4-4-12`).
    package var uuid: String
    /// The architecture's name, such as `arm64`, `arm64e`, `x86_64` or `armv7k`.
    package var arch: String
    /// What the slice holds.
    package var kind: Kind
    /// The `__TEXT` segment's address in the file: a frame's offset into its image is looked up at this plus the offset.
    package var textVMAddr: UInt64
    /// Where the slice starts in its file, and its length.
    package var fileOffset: UInt64
    package var size: UInt64

    package init(uuid: String, arch: String, kind: Kind, textVMAddr: UInt64, fileOffset: UInt64, size: UInt64) {
        self.uuid = uuid
        self.arch = arch
        self.kind = kind
        self.textVMAddr = textVMAddr
        self.fileOffset = fileOffset
        self.size = size
    }
}
