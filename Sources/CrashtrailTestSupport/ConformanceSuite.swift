public import CrashtrailCore
public import Foundation

/// The conformance suite of the SPEC (section 4): navigation cases and URL cases.
///
/// Found at `$CRASHTRAIL_CONFORMANCE`, else the copy vendored in the repository at `Tests/Fixtures/conformance`, so a
/// clone with nothing beside it runs every conformance test. `VendoredConformanceTests` keeps that copy identical to
/// the shared suite (`../shared/conformance` beside the package root, `ConformanceSuite.shared`) whenever it is there.
public struct ConformanceSuite: Sendable {
    public let folder: URL

    /// One navigation case: a trail, the manifest it uses, and what replaying it must give.
    public struct NavigationCase: Sendable, CustomStringConvertible {
        public let name: String
        public let trailURL: URL
        public let trailBytes: [UInt8]
        /// The parsed `NAME.expected.json`.
        public let expected: JSONValue
        /// The manifest file name the case names (`piratebay.yml` unless it says otherwise).
        public let manifestName: String
        public var description: String { name }
    }

    /// The suite the tests run: `$CRASHTRAIL_CONFORMANCE` when set, else the vendored copy.
    ///
    /// - Returns: nil only when the chosen folder is absent, that is when `$CRASHTRAIL_CONFORMANCE` names no folder
    ///   (the vendored copy is part of the repository).
    public static func locate(packageRoot: URL = PackageRoot.url) -> ConformanceSuite? {
        existing(chosenFolder(packageRoot: packageRoot))
    }

    /// The suite the tests run, as ``locate(packageRoot:)`` finds it.
    ///
    /// - Throws: ``Missing`` naming the folder, when it is absent.
    public static func required(packageRoot: URL = PackageRoot.url) throws -> ConformanceSuite {
        let folder = chosenFolder(packageRoot: packageRoot)
        guard let suite = existing(folder) else { throw Missing(folder: folder) }
        return suite
    }

    /// The conformance suite's folder is not there.
    public struct Missing: Error, CustomStringConvertible {
        public let folder: URL
        public var description: String {
            "the conformance suite is not at \(folder.path) (CRASHTRAIL_CONFORMANCE when set, else the copy in Tests/Fixtures/conformance)"
        }
    }

    /// The shared suite, `../shared/conformance` beside the package root, or nil when it is not checked out there.
    public static func shared(packageRoot: URL = PackageRoot.url) -> ConformanceSuite? {
        existing(sharedFolder(packageRoot: packageRoot))
    }

    /// Where the repository keeps its copy of the suite.
    public static func vendoredFolder(packageRoot: URL = PackageRoot.url) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures/conformance")
    }

    /// Where the shared suite sits when it is checked out beside the package (as in CI).
    public static func sharedFolder(packageRoot: URL = PackageRoot.url) -> URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
    }

    private static func chosenFolder(packageRoot: URL) -> URL {
        ProcessInfo.processInfo.environment["CRASHTRAIL_CONFORMANCE"].map { URL(fileURLWithPath: $0) }
            ?? vendoredFolder(packageRoot: packageRoot)
    }

    private static func existing(_ folder: URL) -> ConformanceSuite? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return ConformanceSuite(folder: folder)
    }

    /// Whether a missing prerequisite (the shared suite, a PostgreSQL server, a browser) must fail the tests rather
    /// than skip them: in CI, where the environment sets `CI`.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Loads a manifest of the suite by file name.
    public func manifest(named name: String) throws -> Manifest {
        try Manifest(contentsOf: folder.appendingPathComponent(name))
    }

    /// Every navigation case, sorted by name.
    public func navigationCases() throws -> [NavigationCase] {
        let navigation = folder.appendingPathComponent("navigation")
        let names = try FileManager.default.contentsOfDirectory(atPath: navigation.path)
            .filter { $0.hasSuffix(".trail.json") }
            .map { String($0.dropLast(".trail.json".count)) }
            .sorted()
        return try names.map { name in
            let trailURL = navigation.appendingPathComponent("\(name).trail.json")
            let expectedData = try Data(contentsOf: navigation.appendingPathComponent("\(name).expected.json"))
            let expected = try JSONParser.parse(Array(expectedData))
            return NavigationCase(
                name: name, trailURL: trailURL, trailBytes: Array(try Data(contentsOf: trailURL)), expected: expected,
                manifestName: expected["manifest"]?.stringValue ?? "piratebay.yml")
        }
    }

    /// The parsed `urls.json`.
    public func urlCases() throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: folder.appendingPathComponent("urls.json"))))
    }
}

/// The package's root folder, found from this source file's path.
public enum PackageRoot {
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CrashtrailTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()
}
