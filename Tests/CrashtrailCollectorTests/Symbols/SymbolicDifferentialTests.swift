import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Testing

/// The symbolicator against Sentry's own symbolication library, `symbolic` (`reference.json`, made by
/// `Tools/symbolic-reference.py` with the version it names): every address that starts a row of the test dSYMs' line
/// tables, every return address in the middle of a call, and the padding past functions' ends, in C, C++ and Swift,
/// DWARF 4 and 5, thin and universal files, a dylib and an executable, and a stripped binary's symbol table.
@Suite("Symbolication agrees with Sentry's symbolic")
struct SymbolicDifferentialTests {
    static let symbolizerFound = SymbolizerLocator.locate() != nil

    /// Where the two deliberately differ, and why; nil where they must agree.
    static func allowedDifference(
        slice: SymbolFixtures.Slice, lookup: SymbolFixtures.Lookup, ours: [SymbolicatedFrame]?
    ) -> String? {
        let theirs = lookup.symbolic ?? []
        guard lookup.sources == ["end"] else { return nil }
        // Past a function's last line row (x86_64 pads functions with nops): no line covers the address, and symbolic
        // names nothing, where llvm-symbolizer falls back on the symbol table. No return address or crashing pc is
        // ever there, since no instruction runs there.
        if slice.kind == "dsym", theirs.isEmpty, let ours, ours.count == 1, ours[0].file == nil {
            return "padding past a function's end: symbolic names nothing, the symbol table names the function"
        }
        // Past the last function of a stripped binary's __text: symbolic stretches the last symbol to the section's
        // end, llvm-symbolizer does not.
        if slice.kind == "stripped", ours == nil, theirs.count == 1 {
            return "past the last symbol of a stripped binary"
        }
        return nil
    }

    @Test(
        "Every address of every test slice gives symbolic's function, file, line and inline chain",
        .enabled(if: symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func everyAddress() throws {
        // Given the reference and every slice's debug file in a store of its own
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        #expect(reference.slices.count == 7)
        var compared = 0
        var startsCompared = 0
        var allowed: [String: Int] = [:]
        for slice in reference.slices {
            let folder = try TestFiles.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try TestFiles.memoryStore()
            let imported = try DebugFileImport(store: store, decoder: TestFiles.codec()).add([fixtures.url(slice.file).path], project: 1)
            #expect(imported.refused.isEmpty, "\(slice.file): \(imported.refused)")
            let stored = try #require(try store.debugFiles().first { $0.uuid == slice.uuid.lowercased() && $0.arch == slice.arch })
            #expect(stored.textVMAddr == slice.textVMAddr)
            #expect(stored.kind == (slice.kind == "dsym" ? "dwarf" : "symbol-table"))
            let symbolicator = try Symbolicator(store: store, folder: folder, workers: 1)
            let lookups = slice.lookups.map { Symbolicator.Lookup(uuid: stored.uuid, address: stored.textVMAddr + $0.offset) }

            // When
            let answers = symbolicator.frames(at: lookups)

            // Then (a reference made with symbolic 8, which cannot read DWARF 5, has llvm-symbolizer's frames alone there)
            for (lookup, ours) in zip(slice.lookups, answers) {
                let theirs = lookup.symbolic ?? lookup.llvmSymbolizer
                if let reason = Self.allowedDifference(slice: slice, lookup: lookup, ours: ours) {
                    allowed[reason, default: 0] += 1
                    continue
                }
                let expected = theirs.map { Expected(symbol: $0.symbol, file: $0.fullPath, line: $0.line == 0 ? nil : $0.line) }
                let got = (ours ?? []).map { Expected(symbol: $0.rawSymbol, file: $0.file, line: $0.line) }
                #expect(
                    got == expected,
                    "\(slice.file) (\(slice.arch)) offset 0x\(String(lookup.offset, radix: 16)) (\(lookup.sources.joined(separator: ", ")))"
                )
                // Innermost first: all but the last were inlined.
                #expect((ours ?? []).map(\.inlined) == expected.indices.map { $0 < expected.count - 1 })
                // The function the address is in starts where symbolic says, so the offset into it (`symbol + 52`) agrees.
                if let start = theirs.last?.symbolAddress, let ours = ours?.last, slice.kind == "dsym" {
                    #expect(
                        ours.startAddress == stored.textVMAddr + start,
                        "\(slice.file) (\(slice.arch)) offset 0x\(String(lookup.offset, radix: 16)): function start")
                    startsCompared += 1
                }
                compared += 1
            }
        }
        // Every lookup was compared but the few the test explains.
        #expect(compared > 1_500)
        #expect(startsCompared > 1_000)
        #expect(allowed.values.reduce(0, +) <= 30, "\(allowed)")
    }

    struct Expected: Hashable, CustomStringConvertible {
        var symbol: String
        var file: String?
        var line: Int?

        var description: String { "\(symbol) \(file ?? "?"):\(line ?? 0)" }
    }
}
