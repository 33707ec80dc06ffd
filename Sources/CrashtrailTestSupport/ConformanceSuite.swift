public import CrashtrailCore
public import Foundation

/// The shared conformance suite (SPEC section 4): navigation cases and URL cases.
///
/// Found at `$CRASHTRAIL_CONFORMANCE`, else `../shared/conformance` beside the package root.
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

    /// The suite, or nil when its folder is absent.
    public static func locate(packageRoot: URL = PackageRoot.url) -> ConformanceSuite? {
        let environment = ProcessInfo.processInfo.environment["CRASHTRAIL_CONFORMANCE"].map { URL(fileURLWithPath: $0) }
        let candidate = environment ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return ConformanceSuite(folder: candidate)
    }

    /// Whether a missing suite must fail the tests rather than skip them (in CI).
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
