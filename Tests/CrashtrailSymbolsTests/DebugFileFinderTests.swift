import CrashtrailTestSupport
import Foundation
import Testing
import ZIPFoundation

@testable import CrashtrailSymbols

/// Finding the Mach-O files among what `symbols add` is given: dSYM bundles, folders, zip archives as Xcode gives them,
/// and what must be refused (a zip bomb, a path that is not there).
@Suite("Debug file finder")
struct DebugFileFinderTests {
    static let fixtures = SymbolFixtures.shared

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-finder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A zip of dSYM bundles gives the Mach-O file of each, named ARCHIVE:ENTRY; the plists are skipped")
    func zipOfBundles() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let archive = Self.fixtures.url("dsyms.zip").path
        let (found, refused) = DebugFileFinder(scratch: scratch).candidates(in: [archive])
        #expect(refused.isEmpty)
        #expect(
            found.map(\.name) == [
                "\(archive):AppC.dSYM/Contents/Resources/DWARF/AppC", "\(archive):AppSwift.dSYM/Contents/Resources/DWARF/AppSwift",
            ])
        for candidate in found {
            #expect(FileManager.default.fileExists(atPath: candidate.path))
            #expect(candidate.path.hasPrefix(scratch.path))
        }
    }

    @Test("A folder is searched, dSYM bundles included; a missing path is refused by name")
    func folders() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (found, refused) = DebugFileFinder(scratch: scratch).candidates(in: [
            Self.fixtures.url("AppFat.dSYM").path, "/nonexistent/App.dSYM",
        ])
        #expect(found.map { URL(fileURLWithPath: $0.name).lastPathComponent } == ["AppFat"])
        #expect(refused.map(\.name) == ["/nonexistent/App.dSYM"])
        #expect(refused.first?.reason == "no such file or folder")
    }

    @Test("A zip bomb is refused before it is inflated")
    func zipBomb() throws {
        // Given an archive whose one entry inflates 64 MiB of zeros from a few kilobytes
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bomb = scratch.appendingPathComponent("bomb.zip")
        let archive = try Archive(url: bomb, accessMode: .create)
        let size: Int64 = 64 << 20
        let chunk = Data(count: 1 << 20)
        try archive.addEntry(
            with: "App.dSYM/Contents/Resources/DWARF/App", type: .file, uncompressedSize: size, compressionMethod: .deflate,
            provider: { _, count in chunk.prefix(count) })
        let compressed = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        #expect(compressed < 1 << 20)

        // When
        let extracted = scratch.appendingPathComponent("extracted")
        let (found, refused) = DebugFileFinder(scratch: extracted).candidates(in: [bomb.path])

        // Then
        #expect(found.isEmpty)
        #expect(refused.map(\.name) == [bomb.path])
        #expect(refused.first?.reason.contains("zip bomb") == true, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: extracted.path))
    }

    @Test("An entry over the size limit is refused")
    func entryTooLarge() throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var finder = DebugFileFinder(scratch: scratch.appendingPathComponent("extracted"))
        finder.maximumEntrySize = 4096
        let (found, refused) = finder.candidates(in: [Self.fixtures.url("dsyms.zip").path])
        #expect(found.isEmpty)
        #expect(refused.first?.reason.contains("over the limit of 4096") == true, "\(refused)")
    }
}
