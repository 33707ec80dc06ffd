import CrashtrailCore

/// Reads the slices of a Mach-O file, thin or universal, from its headers and load commands alone.
///
/// Every offset and count is checked against the file and the slice before it is used, and every count is bounded, so
/// a damaged or hostile file is refused with a ``MachOError`` naming the problem, never read past its end.
package enum MachOReader {
    /// The most slices a universal file may hold (Apple's tools write a handful).
    static let maximumSlices = 64
    /// The most bytes of load commands a slice may have.
    static let maximumLoadCommands = 16 << 20

    private static let fatMagic: UInt32 = 0xCAFE_BABE
    private static let fatMagic64: UInt32 = 0xCAFE_BABF
    private static let magic64: UInt32 = 0xFEED_FACF
    private static let magic32: UInt32 = 0xFEED_FACE

    /// Whether `bytes`, a file's first four bytes or more, start like a Mach-O or universal file.
    package static func looksLikeMachO(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let big = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        let little = big.byteSwapped
        return big == fatMagic || big == fatMagic64 || little == magic64 || little == magic32
    }

    /// The slices of the file in `source`.
    /// - Parameters:
    ///   - source: the file's bytes.
    ///   - name: the file's name, for messages.
    /// - Returns: each slice, in file order.
    /// - Throws: ``MachOError``: `not-mach-o`, `damaged`, `no-uuid` or `stripped`, naming the slice.
    package static func slices(of source: any ByteSource, name: String) throws -> [MachOSlice] {
        let head = try source.read(at: 0, count: 8)
        guard looksLikeMachO(head) else {
            throw MachOError(
                .notMachO, "\(name) is no Mach-O file: it starts with \(hex(head.prefix(4))), not a Mach-O or universal header")
        }
        let magic = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
        guard magic == fatMagic || magic == fatMagic64 else {
            return [try slice(in: source, offset: 0, size: source.size, name: name)]
        }
        guard head.count == 8 else { throw MachOError(.damaged, "\(name): the universal header is cut short") }
        let count = Int(UInt32(head[4]) << 24 | UInt32(head[5]) << 16 | UInt32(head[6]) << 8 | UInt32(head[7]))
        guard count > 0, count <= maximumSlices else {
            throw MachOError(.damaged, "\(name): the universal header names \(count) slices (at most \(maximumSlices) are read)")
        }
        let entrySize = magic == fatMagic64 ? 32 : 20
        let table = BigEndianReader(try source.read(at: 8, count: count * entrySize))
        guard table.count == count * entrySize else {
            throw MachOError(.damaged, "\(name): the universal header's \(count) slices run past the end of the file")
        }
        let tableEnd = UInt64(8 + count * entrySize)
        let ranges = try (0..<count).map { index -> (offset: UInt64, size: UInt64) in
            let base = index * entrySize
            let offset = magic == fatMagic64 ? table.uint64(at: base + 8) : UInt64(table.uint32(at: base + 8))
            let size = magic == fatMagic64 ? table.uint64(at: base + 16) : UInt64(table.uint32(at: base + 12))
            guard size > 0, offset >= tableEnd, offset <= source.size, size <= source.size - offset else {
                throw MachOError(
                    .damaged,
                    "\(name): slice \(index) claims \(size) bytes at offset \(offset), past the end of the \(source.size)-byte file or inside its header"
                )
            }
            return (offset, size)
        }
        // Slices that overlap would store the same bytes again, each whole: a universal file that declares them is
        // damaged or hostile, and refused before anything is stored.
        let ordered = ranges.enumerated().sorted { $0.element.offset < $1.element.offset }
        for (previous, next) in zip(ordered, ordered.dropFirst())
        where previous.element.offset + previous.element.size > next.element.offset {
            throw MachOError(
                .damaged, "\(name): slices \(previous.offset) and \(next.offset) overlap; a universal file's slices never share bytes")
        }
        return try ranges.enumerated().map { index, range in
            try slice(in: source, offset: range.offset, size: range.size, name: "\(name) (slice \(index))")
        }
    }

    /// The thin Mach-O slice of `size` bytes at `offset`.
    private static func slice(in source: any ByteSource, offset: UInt64, size: UInt64, name: String) throws -> MachOSlice {
        let header = LittleEndianReader(try source.read(at: offset, count: 32))
        guard header.count >= 28 else { throw MachOError(.damaged, "\(name): the Mach-O header is cut short") }
        let magic = header.uint32(at: 0)
        guard magic == magic64 || magic == magic32 else {
            throw MachOError(.notMachO, "\(name): no Mach-O header (magic 0x\(String(magic, radix: 16)))")
        }
        let is64 = magic == magic64
        let headerSize: UInt64 = is64 ? 32 : 28
        let cpuType = header.uint32(at: 4)
        let cpuSubtype = header.uint32(at: 8) & 0x00FF_FFFF
        let commandCount = Int(header.uint32(at: 16))
        let commandsSize = UInt64(header.uint32(at: 20))
        guard commandsSize <= UInt64(maximumLoadCommands), headerSize + commandsSize <= size else {
            throw MachOError(.damaged, "\(name): its load commands (\(commandsSize) bytes) run past the end of the slice")
        }
        let commands = LittleEndianReader(try source.read(at: offset + headerSize, count: Int(commandsSize)))
        guard UInt64(commands.count) == commandsSize else {
            throw MachOError(.damaged, "\(name): its load commands run past the end of the file")
        }
        var uuid: String?
        var textVMAddr: UInt64?
        var hasDWARF = false
        var symbols = 0
        var position = 0
        for index in 0..<commandCount {
            guard position + 8 <= commands.count else {
                throw MachOError(.damaged, "\(name): load command \(index) of \(commandCount) runs past the load commands' end")
            }
            let command = commands.uint32(at: position)
            let commandSize = Int(commands.uint32(at: position + 4))
            guard commandSize >= 8, position + commandSize <= commands.count else {
                throw MachOError(.damaged, "\(name): load command \(index) claims \(commandSize) bytes, past the load commands' end")
            }
            switch command {
            case 0x1B where commandSize >= 24:  // LC_UUID
                uuid = formattedUUID(commands.bytes(at: position + 8, count: 16))
            case 0x19 where commandSize >= 72, 0x1 where commandSize >= 56:  // LC_SEGMENT_64, LC_SEGMENT
                let segment = segmentName(commands.bytes(at: position + 8, count: 16))
                let vmaddr = command == 0x19 ? commands.uint64(at: position + 24) : UInt64(commands.uint32(at: position + 24))
                if segment == "__TEXT" { textVMAddr = vmaddr }
                if segment == "__DWARF" {
                    let sectionCount = Int(commands.uint32(at: position + (command == 0x19 ? 64 : 48)))
                    let sectionSize = command == 0x19 ? 80 : 68
                    let first = position + (command == 0x19 ? 72 : 56)
                    guard sectionCount >= 0, first + sectionCount * sectionSize <= position + commandSize else {
                        throw MachOError(.damaged, "\(name): the __DWARF segment's \(sectionCount) sections run past their command")
                    }
                    for section in 0..<sectionCount {
                        let base = first + section * sectionSize
                        let sectionName = segmentName(commands.bytes(at: base, count: 16))
                        // section_64: size at 40 (8 bytes), offset at 48; section: size at 36 (4 bytes), offset at 40.
                        let length = command == 0x19 ? commands.uint64(at: base + 40) : UInt64(commands.uint32(at: base + 36))
                        let start = UInt64(commands.uint32(at: base + (command == 0x19 ? 48 : 40)))
                        guard start <= size, length <= size - start else {
                            throw MachOError(
                                .damaged,
                                "\(name): its DWARF section \(sectionName) claims \(length) bytes at offset \(start), past the end of the \(size)-byte slice"
                            )
                        }
                        if sectionName == "__debug_info" { hasDWARF = true }
                    }
                }
            case 0x2 where commandSize >= 24:  // LC_SYMTAB
                symbols = Int(commands.uint32(at: position + 12))
            default:
                break
            }
            position += commandSize
        }
        let arch = architecture(cpuType: cpuType, subtype: cpuSubtype)
        guard let uuid else { throw MachOError(.noUUID, "\(name) (\(arch)) has no LC_UUID, so no crash report can name it") }
        guard hasDWARF || symbols > 0 else {
            throw MachOError(
                .stripped, "\(name) (\(arch), \(uuid)) has neither DWARF nor a symbol table: it was stripped; add its dSYM instead")
        }
        return MachOSlice(
            uuid: uuid, arch: arch, kind: hasDWARF ? .dwarf : .symbolTable, textVMAddr: textVMAddr ?? 0, fileOffset: offset,
            size: size)
    }

    /// The architecture's name, as Apple's tools write it.
    package static func architecture(cpuType: UInt32, subtype: UInt32) -> String {
        switch (cpuType, subtype) {
        case (0x0100_000C, 2): "arm64e"
        case (0x0100_000C, _): "arm64"
        case (0x0200_000C, _): "arm64_32"
        case (0x0100_0007, 8): "x86_64h"
        case (0x0100_0007, _): "x86_64"
        case (7, _): "i386"
        case (12, 9): "armv7"
        case (12, 11): "armv7s"
        case (12, 12): "armv7k"
        case (12, _): "arm"
        default: "cpu-\(cpuType)-\(subtype)"
        }
    }

    private static func formattedUUID(_ bytes: [UInt8]) -> String {
        [bytes[0..<4], bytes[4..<6], bytes[6..<8], bytes[8..<10], bytes[10...]].map(Hex.lowercase).joined(separator: "-")
    }

    private static func segmentName(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
}

/// Reads little-endian integers from bytes whose length the caller has checked.
struct LittleEndianReader {
    let storage: [UInt8]
    init(_ storage: [UInt8]) { self.storage = storage }
    var count: Int { storage.count }

    func uint32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= storage.count else { return 0 }
        return (0..<4).reduce(0) { $0 | UInt32(storage[offset + $1]) << (8 * $1) }
    }

    func uint64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= storage.count else { return 0 }
        return (0..<8).reduce(0) { $0 | UInt64(storage[offset + $1]) << (8 * $1) }
    }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= storage.count else { return [] }
        return Array(storage[offset..<offset + count])
    }
}

/// Reads big-endian integers (a universal header's) from bytes whose length the caller has checked.
struct BigEndianReader {
    let storage: [UInt8]
    init(_ storage: [UInt8]) { self.storage = storage }
    var count: Int { storage.count }

    func uint32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= storage.count else { return 0 }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(storage[offset + $1]) }
    }

    func uint64(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= storage.count else { return 0 }
        return (0..<8).reduce(0) { $0 << 8 | UInt64(storage[offset + $1]) }
    }
}
