import CrashtrailIntake
import CrashtrailStore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Testing

/// Real crashes of one app on three architectures and OS versions (CrashProbe, reported by Sentry's Cocoa SDK;
/// Tests/Fixtures/crashprobe): the system frames around the app's differ, `<redacted>` among them, and the groups
/// must not (SPEC section 21).
@Suite("CrashProbe's crashes on three devices")
struct CrashProbeGroupingTests {
    static let symbolizerFound = SymbolizerLocator.locate() != nil

    /// The fixtures, gunzipped into a temporary folder: crash files in it, debug files in `debug/`.
    static func unpack() throws -> URL {
        let target = try TestFiles.temporaryFolder()
        try CrashProbeFixtures.unpack(into: target)
        return target
    }

    @Test("No signature names <redacted> or a system frame beside the app's, even before the debug files come")
    func noRedactedFrames() throws {
        let folder = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        let summary = try TestFiles.ingest([folder.path], store: store, folder: folder)
        #expect(summary.stored == 6)
        let signatures = try store.reports().map(\.signature)
        #expect(signatures.count == 6)
        for signature in signatures {
            #expect(!signature.contains("<redacted>"), "\(signature)")
            #expect(!signature.contains("CFRunLoopRunSpecific") && !signature.contains("UIApplication"), "\(signature)")
        }
    }

    @Test(
        "With the debug files, each crash is one group on arm64, armv7 and the x86_64 simulator",
        .enabled(if: symbolizerFound || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func oneGroupPerCrash() throws {
        let folder = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReportStore.open(path: folder.appendingPathComponent("store.sqlite").path)
        let imported = try DebugFileImport(store: store, decoder: TestFiles.codec()).add(
            [folder.appendingPathComponent("debug").path], project: 1)
        #expect(imported.slices.count == 4 && imported.refused.isEmpty)
        _ = try TestFiles.ingest([folder.path], store: store, folder: folder)
        let groups = try store.groups().map(\.signature).sorted()
        #expect(
            groups == [
                "EXC_BAD_ACCESS @ -[CRLCrashNULL crash] < -[CRLDetailViewController doCrash]",
                "EXC_BAD_ACCESS @ -[CRLCrashROPage crash] < -[CRLDetailViewController doCrash]",
            ])
        #expect(try store.groups().allSatisfy { $0.count == 3 })
    }
}
