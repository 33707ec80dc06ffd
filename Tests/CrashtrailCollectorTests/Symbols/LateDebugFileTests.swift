import CrashtrailFormats
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Testing

/// Release-build crashes of the fixture app stored first, their dSYMs added after, as teams upload them.
///
/// The app's frames are named as a device names a stripped binary's: by its one exported symbol.
@Suite("Crashes stored before their dSYMs")
struct LateDebugFileTests {
    static let symbolizerFound = SymbolizerLocator.locate() != nil
    static let fixtures = SymbolFixtures.shared

    typealias Crash = SymbolFixtures.Crash

    static func crash(id: String, in slice: SymbolFixtures.Slice, top: String, caller: String?) throws -> Crash {
        try SymbolFixtures.crash(id: id, in: slice, top: top, caller: caller)
    }

    static func ips(_ crash: Crash, exported: UInt64) -> String { SymbolFixtures.ips(crash, exported: exported) }

    @Test(
        "Two bugs merged by the stripped name split into their own groups when the dSYMs arrive, and one bug in two builds is one group",
        .enabled(if: symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func lateDebugFiles() throws {
        // Given three crashes stored without debug files: a null write and a division in build AppC, the null write
        // again in build AppC5 (the same code, DWARF 5); crash_null_write tail-calls write_through, so it is on no stack
        let reference = try Self.fixtures.reference()
        let build1 = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let build2 = try #require(reference.slices.first { $0.file == "AppC5.dSYM/Contents/Resources/DWARF/AppC5" })
        let crashes = [
            try Self.crash(id: "11111111-0000-4000-8000-000000000001", in: build1, top: "write_through", caller: nil),
            try Self.crash(id: "11111111-0000-4000-8000-000000000002", in: build1, top: "divide", caller: "crash_divide"),
            try Self.crash(id: "11111111-0000-4000-8000-000000000003", in: build2, top: "write_through", caller: nil),
        ]
        let exported = try #require(
            reference.slices.first { $0.kind == "stripped" }?.lookups.compactMap {
                $0.symbolic?.first?.symbol == "kaboom_exception_what" ? $0.offset : nil
            }
            .min())
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for crash in crashes {
            try TestFiles.write(Self.ips(crash, exported: exported), to: folder.appendingPathComponent("\(crash.id).ips"))
        }
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        let summary = try TestFiles.ingest([folder.path], store: store, folder: folder)
        #expect(summary.stored == 3)
        let before = try store.groups()
        let missing = try store.missingDebugFiles()
        #expect(missing.map(\.uuid).sorted() == [build1.uuid.lowercased(), build2.uuid.lowercased()].sorted())
        #expect(missing.first { $0.uuid == build1.uuid.lowercased() }?.reports == 2)
        #expect(missing.allSatisfy { $0.appVersions == ["1.0 (1)"] || $0.appVersions == ["1.0"] }, "\(missing)")

        // When the two builds' dSYMs are added
        var progress: [DebugFileImport.Progress] = []
        let imported = try DebugFileImport(store: store, decoder: TestFiles.codec()).add(
            [Self.fixtures.url("AppC.dSYM").path, Self.fixtures.url("AppC5.dSYM").path], project: 1, progress: { progress.append($0) })

        // Then every report is derived again, each frame named as symbolic names it
        #expect(imported.slices.count == 2 && imported.refused.isEmpty)
        #expect(imported.rederived.examined == 3)
        #expect(imported.notice == nil)
        #expect(try store.missingDebugFiles().isEmpty)
        for crash in crashes {
            let record = try #require(try store.record(id: crash.id))
            let frames = record.report.frames
            let expected = crash.expected.flatMap { chain in
                chain.enumerated().map { index, frame in
                    "\(frame.symbol) (\(frame.fullPath ?? "?"):\(frame.line))\(index < chain.count - 1 ? " [inlined]" : "")"
                }
            }
            #expect(
                frames.map { "\($0.symbol ?? "?") (\($0.file ?? "?"):\($0.line ?? 0))\($0.inlined ? " [inlined]" : "")" } == expected,
                "\(crash.id)")
            #expect(frames.allSatisfy { $0.isSymbolicated })
            #expect(record.images.allSatisfy { $0.symbolicated })
            // The offset into each function is the debug file's, and apple-text writes it (`divide + 0`, not always 0)
            let text = AppleTextWriter.text(of: record.report)
            for frame in frames where !frame.inlined {
                let offset = try #require(frame.functionOffset, "\(crash.id): \(frame.symbol ?? "?")")
                #expect(offset >= 0 && offset < 4096)
                #expect(text.contains("\(frame.symbol ?? "?") + \(offset) ("), "\(crash.id)")
            }
        }
        #expect(
            try crashes.flatMap { try #require(try store.record(id: $0.id)).report.frames }.contains { ($0.functionOffset ?? 0) > 0 },
            "some frame is past its function's first instruction")
        // The null write in two builds is one group; the division, which the stripped name merged with it, its own
        let after = try store.groups()
        // (before, the stripped name had merged all three)
        #expect(before.map(\.count) == [3], "\(before.map(\.signature))")
        #expect(before.first?.signature.contains("kaboom_exception_what") == true, "\(before.map(\.signature))")
        #expect(after.count == 2, "\(after.map(\.signature))")
        let nullWrite = try #require(after.first { $0.signature.contains("write_through") })
        #expect(nullWrite.count == 2)
        #expect(nullWrite.signature == "EXC_BAD_ACCESS/SIGSEGV @ write_through < kaboom_dispatch < kaboom_run_all")
        #expect(after.contains { $0.signature.contains("divide") && $0.count == 1 })
        #expect(progress.contains { if case .rederived(done: 3, total: 3) = $0 { true } else { false } })

        // And adding them again changes nothing
        let again = try DebugFileImport(store: store, decoder: TestFiles.codec()).add([Self.fixtures.url("AppC.dSYM").path], project: 1)
        #expect(again.slices.map(\.isNew) == [false])
        #expect(again.rederived.examined == 0)
    }

    @Test(
        "A job killed after storing a dSYM and before deriving the reports leaves them to the next run",
        .enabled(if: symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func killedMidway() throws {
        // Given a crash stored, then its dSYM stored by a job that stopped there
        let reference = try Self.fixtures.reference()
        let build = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let crash = try Self.crash(id: "22222222-0000-4000-8000-000000000001", in: build, top: "divide", caller: "crash_divide")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestFiles.write(Self.ips(crash, exported: 0x7FFF_FFFF), to: folder.appendingPathComponent("crash.ips"))
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        _ = try TestFiles.ingest([folder.path], store: store, folder: folder)
        let importer = DebugFileImport(store: store, decoder: try TestFiles.codec())
        let stored = try importer.store(DebugFileFinder.Candidate(path: Self.fixtures.url(build.file).path, name: "AppC"), project: 1)
        #expect(stored.count == 1)
        #expect(try store.reportsAwaitingStoredDebugFiles() == [crash.id])

        // When the next run starts
        let (rederived, notice) = try importer.rederivePending()

        // Then it finishes the work, once
        #expect(notice == nil)
        #expect(rederived.examined == 1 && rederived.changed == 1)
        #expect(try store.reportsAwaitingStoredDebugFiles().isEmpty)
        #expect(try store.record(id: crash.id)?.report.frames.first?.symbol == "divide")
        #expect(try importer.rederivePending().rederived.examined == 0)
    }
}
