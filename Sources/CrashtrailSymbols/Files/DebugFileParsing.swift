/// The Mach-O reader `crashtrail symbols add` and the upload over HTTP use, on bytes in memory, for the fuzz targets.
@_spi(Fuzzing) public enum DebugFileParsing {
    /// A slice the reader accepted: its UUID, architecture, `__TEXT` vmaddr and where it is in the file.
    public struct Slice: Sendable {
        public var uuid: String
        public var arch: String
        public var textVMAddr: UInt64
        public var fileOffset: UInt64
        public var size: UInt64
    }

    /// The slices of `bytes`, or why the file is refused.
    /// - Throws: the reader's error, which names `name` and the problem.
    public static func slices(of bytes: [UInt8], name: String = "input") throws -> [Slice] {
        try MachOReader.slices(of: MemoryByteSource(bytes), name: name).map { slice in
            Slice(uuid: slice.uuid, arch: slice.arch, textVMAddr: slice.textVMAddr, fileOffset: slice.fileOffset, size: slice.size)
        }
    }
}
