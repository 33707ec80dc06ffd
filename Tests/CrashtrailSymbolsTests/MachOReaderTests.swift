import CrashtrailTestSupport
import Foundation
import Testing

@testable import CrashtrailSymbols

/// The Mach-O reader on the real files `Tools/make-symbol-fixtures.sh` made (their UUIDs as `llvm-dwarfdump --uuid`
/// printed them, in `uuids.txt`) and on damaged and hostile copies of them: each refused by name, never a crash, and
/// read with bounded memory.
@Suite("Mach-O reader")
struct MachOReaderTests {
    static let fixtures = SymbolFixtures.shared

    /// Each slice `llvm-dwarfdump --uuid` listed: file, UUID, arch.
    static func dwarfdumpSlices() throws -> [(file: String, uuid: String, arch: String)] {
        try String(contentsOf: fixtures.url("uuids.txt"), encoding: .utf8).split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            return (fields[2], fields[0].lowercased(), fields[1])
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.url(name)))
    }

    static func slices(_ bytes: [UInt8], name: String = "damaged") throws -> [MachOSlice] {
        try MachOReader.slices(of: MemoryByteSource(bytes), name: name)
    }

    @Test("Every slice of every fixture has the UUID and architecture llvm-dwarfdump gives it")
    func agreesWithDwarfdump() throws {
        let expected = try Self.dwarfdumpSlices()
        #expect(expected.count == 13)
        for file in Set(expected.map(\.file)) {
            let slices = try MachOReader.slices(of: FileByteSource(path: Self.fixtures.url(file).path), name: file)
            let theirs = expected.filter { $0.file == file }.map { "\($0.uuid) \($0.arch)" }.sorted()
            #expect(slices.map { "\($0.uuid) \($0.arch)" }.sorted() == theirs, "\(file)")
            // A dSYM holds DWARF; a linked binary (the debug map points at object files) and a stripped one, a symbol table.
            #expect(slices.allSatisfy { $0.kind == (file.contains(".dSYM/") ? .dwarf : .symbolTable) }, "\(file)")
        }
    }

    @Test("An executable's __TEXT is at 0x100000000, a dylib's at 0; a universal file's slices lie inside it")
    func layout() throws {
        let executable = try MachOReader.slices(of: FileByteSource(path: Self.fixtures.url("AppExe").path), name: "AppExe")
        #expect(executable.map(\.textVMAddr) == [0x1_0000_0000])
        let fat = try Self.bytes("AppFat")
        let slices = try Self.slices(fat, name: "AppFat")
        #expect(slices.map(\.arch) == ["x86_64", "arm64"])  // in file order, as llvm-lipo wrote them
        #expect(slices.allSatisfy { $0.textVMAddr == 0 && $0.fileOffset + $0.size <= UInt64(fat.count) })
    }

    @Test("Files that are not Mach-O are refused by name")
    func notMachO() throws {
        for bytes: [UInt8] in [[], [0x50, 0x4B, 3, 4, 0, 0, 0, 0], Array("#!/bin/sh\necho hi\n".utf8)] {
            let error = #expect(throws: MachOError.self) { try Self.slices(bytes, name: "notes.txt") }
            #expect(error?.code == .notMachO)
            #expect(error?.message.contains("notes.txt") == true)
        }
    }

    @Test("A universal header cut short, claiming 2^32-1 slices, or slices past the end of the file is refused")
    func damagedUniversalHeader() throws {
        let fat = try Self.bytes("AppFat")
        // Cut inside the slice table (8 bytes of header, 20 per slice).
        let cut = try #require(#expect(throws: MachOError.self) { try Self.slices(Array(fat.prefix(20)), name: "AppFat") })
        #expect(cut.code == .damaged && cut.message.contains("run past the end"), "\(cut.message)")
        var many = fat
        many.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let countError = try #require(#expect(throws: MachOError.self) { try Self.slices(many) })
        #expect(countError.message.contains("4294967295 slices"), "\(countError.message)")
        // The first slice's size (big-endian, at 8 + 12) made larger than the file.
        var past = fat
        past.replaceSubrange(20..<24, with: [0x7F, 0xFF, 0xFF, 0xFF])
        let pastError = try #require(#expect(throws: MachOError.self) { try Self.slices(past) })
        #expect(pastError.message.contains("past the end of the \(fat.count)-byte file"), "\(pastError.message)")
    }

    @Test("A universal header whose slices overlap, or start inside the header, is refused before any slice is read")
    func overlappingSlices() throws {
        let fat = try Self.bytes("AppFat")
        #expect(fat[7] >= 2, "AppFat has two slices or more")
        // The second slice's offset (big-endian, at 8 + 20 + 8) made the first's: the same bytes twice.
        var overlapping = fat
        overlapping.replaceSubrange(36..<40, with: fat[16..<20])
        let overlap = try #require(#expect(throws: MachOError.self) { try Self.slices(overlapping, name: "AppFat") })
        #expect(overlap.code == .damaged && overlap.message.contains("slices 0 and 1 overlap"), "\(overlap.message)")
        // The first slice's offset made 8, inside the slice table.
        var inside = fat
        inside.replaceSubrange(16..<20, with: [0, 0, 0, 8])
        let header = try #require(#expect(throws: MachOError.self) { try Self.slices(inside, name: "AppFat") })
        #expect(header.message.contains("inside its header"), "\(header.message)")
    }

    @Test("Load commands that run past their end, or past the file, are refused")
    func damagedLoadCommands() throws {
        let dylib = try Self.bytes("AppC")
        // sizeofcmds (at 20) larger than the file.
        var commands = dylib
        commands.replaceSubrange(20..<24, with: [0x00, 0x00, 0x10, 0x00])
        let sizeError = try #require(#expect(throws: MachOError.self) { try Self.slices(commands) })
        #expect(sizeError.code == .damaged, "\(sizeError.message)")
        // The first load command (at 32) claiming a cmdsize past the commands' end.
        var command = dylib
        command.replaceSubrange(36..<40, with: [0x00, 0x00, 0xFF, 0x00])
        let commandError = try #require(#expect(throws: MachOError.self) { try Self.slices(command) })
        #expect(commandError.message.contains("load command 0"), "\(commandError.message)")
        // More commands than there are bytes for.
        var count = dylib
        count.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0x00, 0x00])
        let countError = try #require(#expect(throws: MachOError.self) { try Self.slices(count) })
        #expect(countError.message.contains("runs past the load commands' end"), "\(countError.message)")
    }

    @Test("A DWARF section pointing past the end of its file is refused, naming the section")
    func dwarfSectionPastEnd() throws {
        var dwarf = try Self.bytes("AppC.dSYM/Contents/Resources/DWARF/AppC")
        // Find the __debug_info section header among the load commands and point its offset far past the end.
        let name = Array("__debug_info".utf8)
        let header = try #require((0..<4096).first { dwarf[$0..<$0 + name.count].elementsEqual(name) && dwarf[$0 + 16] == 0x5F })
        dwarf.replaceSubrange(header + 48..<header + 52, with: [0x00, 0x00, 0x00, 0x7F])
        let error = try #require(#expect(throws: MachOError.self) { try Self.slices(dwarf, name: "AppC.dSYM") })
        #expect(error.code == .damaged)
        #expect(error.message.contains("AppC.dSYM") && error.message.contains("__debug_info"), "\(error.message)")
    }

    @Test("A file without LC_UUID, or with neither DWARF nor a symbol table, is refused with what to do")
    func noUUIDOrStripped() throws {
        let stripped = try Self.bytes("stripped/AppC")
        let commands = Self.loadCommands(stripped)
        var noUUID = stripped
        let uuid = try #require(commands.first { $0.command == 0x1B })
        noUUID.replaceSubrange(uuid.offset..<uuid.offset + 4, with: [0x00, 0x00, 0x00, 0x70])
        let uuidError = try #require(#expect(throws: MachOError.self) { try Self.slices(noUUID, name: "AppC") })
        #expect(uuidError.code == .noUUID, "\(uuidError.message)")
        var noSymbols = stripped
        let symtab = try #require(commands.first { $0.command == 0x2 })
        noSymbols.replaceSubrange(symtab.offset..<symtab.offset + 4, with: [0x00, 0x00, 0x00, 0x70])
        let strippedError = try #require(#expect(throws: MachOError.self) { try Self.slices(noSymbols, name: "AppC") })
        #expect(strippedError.code == .stripped && strippedError.message.contains("add its dSYM"), "\(strippedError.message)")
    }

    @Test("Reading a file reads its headers only: bounded memory whatever the file's size")
    func readsHeadersOnly() throws {
        let source = CountingSource(bytes: try Self.bytes("AppFat"))
        _ = try MachOReader.slices(of: source, name: "AppFat")
        #expect(source.largestRead <= 65_536)
        #expect(source.total < source.bytes.count / 4, "read \(source.total) of \(source.bytes.count) bytes")
    }

    /// The offset and code of each load command of a thin 64-bit file.
    static func loadCommands(_ bytes: [UInt8]) -> [(offset: Int, command: UInt32)] {
        func uint32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        var found: [(Int, UInt32)] = []
        var position = 32
        for _ in 0..<Int(uint32(16)) {
            found.append((position, uint32(position)))
            position += Int(uint32(position + 4))
        }
        return found
    }
}

/// A byte source that counts what is read.
final class CountingSource: ByteSource, @unchecked Sendable {
    let bytes: [UInt8]
    var total = 0
    var largestRead = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var size: UInt64 { UInt64(bytes.count) }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        total += count
        largestRead = max(largestRead, count)
        return try MemoryByteSource(bytes).read(at: offset, count: count)
    }
}
