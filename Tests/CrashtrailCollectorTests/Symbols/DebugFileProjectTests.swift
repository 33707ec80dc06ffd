import CrashtrailFormats
import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Testing

/// Debug files are kept per project (SPEC section 19): one project's upload names none of another's frames.
@Suite("Debug files by project")
struct DebugFileProjectTests {
    @Test(
        "A dSYM added for another project names none of a project's frames; the project's own names them",
        .enabled(
            if: LateDebugFileTests.symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func debugFilesByProject() throws {
        // Given a crash of build AppC stored in project 1, without its dSYM
        let fixtures = SymbolFixtures.shared
        let reference = try fixtures.reference()
        let build = try #require(reference.slices.first { $0.file == "AppC.dSYM/Contents/Resources/DWARF/AppC" })
        let crash = try SymbolFixtures.crash(id: "19191919-0000-4000-8000-000000000001", in: build, top: "divide", caller: "crash_divide")
        let exported = try #require(
            reference.slices.first { $0.kind == "stripped" }?.lookups.compactMap {
                $0.symbolic?.first?.symbol == "kaboom_exception_what" ? $0.offset : nil
            }
            .min())
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestFiles.write(SymbolFixtures.ips(crash, exported: exported), to: folder.appendingPathComponent("\(crash.id).ips"))
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        #expect(try TestFiles.ingest([folder.path], store: store, folder: folder).stored == 1)
        let importer = DebugFileImport(store: store, decoder: try TestFiles.codec())

        // When project 2 adds the dSYM of that UUID
        let other = try importer.add([fixtures.url("AppC.dSYM").path], project: 2)

        // Then it is stored for project 2 only: project 1's crash is not derived again, and still awaits its own
        #expect(other.slices.map(\.isNew) == [true])
        #expect(other.rederived.examined == 0)
        #expect(try store.record(id: crash.id)?.report.frames.contains { $0.isSymbolicated } == false)
        #expect(try store.missingDebugFiles().map(\.uuid) == [build.uuid.lowercased()])
        #expect(try store.debugFile(uuid: build.uuid.lowercased(), project: 1) == nil)

        // When project 1 adds it
        let own = try importer.add([fixtures.url("AppC.dSYM").path], project: 1)

        // Then it is stored anew for project 1, and names the crash's frames
        #expect(own.slices.map(\.isNew) == [true])
        #expect(own.rederived.examined == 1)
        let record = try #require(try store.record(id: crash.id))
        #expect(record.report.frames.map(\.symbol) == crash.expected.flatMap { $0.map(\.symbol) })
        #expect(try store.missingDebugFiles().isEmpty)
        #expect(Set(try store.debugFiles().map(\.project)) == [1, 2])
    }
}
