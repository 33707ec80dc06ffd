import CrashtrailTestSupport
import Foundation
import Testing

/// The repository's copy of the conformance suite (`Tests/Fixtures/conformance`) against the shared suite beside the
/// package: the tests run the copy, so it must not drift from the source.
@Suite("Vendored conformance suite")
struct VendoredConformanceTests {
    /// The vendored folder's own note, which the shared suite does not have.
    static let vendoredOnly: Set<String> = ["README.md"]

    @Test(
        "The vendored copy is byte for byte the shared suite",
        .enabled(
            if: ConformanceSuite.shared() != nil || ConformanceSuite.isRequired,
            "the shared suite is not checked out beside the package (../shared/conformance)"))
    func vendoredCopyMatchesShared() throws {
        // Given
        let shared = try #require(
            ConformanceSuite.shared(), "the shared suite is required in CI: check out shared/ beside the package")
        let vendored = ConformanceSuite.vendoredFolder()
        // When
        let sharedFiles = try Self.relativeFiles(under: shared.folder)
        let vendoredFiles = try Self.relativeFiles(under: vendored).subtracting(Self.vendoredOnly)
        // Then
        let missing = sharedFiles.subtracting(vendoredFiles).sorted()
        let extra = vendoredFiles.subtracting(sharedFiles).sorted()
        #expect(missing.isEmpty, "in the shared suite but not in Tests/Fixtures/conformance: \(missing)")
        #expect(extra.isEmpty, "in Tests/Fixtures/conformance but not in the shared suite: \(extra)")
        let differing = try sharedFiles.intersection(vendoredFiles).sorted().filter { path in
            try Data(contentsOf: shared.folder.appendingPathComponent(path))
                != Data(contentsOf: vendored.appendingPathComponent(path))
        }
        #expect(differing.isEmpty, "differ from the shared suite (copy it over Tests/Fixtures/conformance): \(differing)")
        #expect(sharedFiles.count > 100, "the shared suite looks empty: \(sharedFiles.count) files")
    }

    /// Every regular file under `folder`, as a path relative to it.
    static func relativeFiles(under folder: URL) throws -> Set<String> {
        let paths = try #require(FileManager.default.subpaths(atPath: folder.path), "cannot list \(folder.path)")
        return Set(
            paths.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            })
    }
}
