import CrashtrailCore
import CrashtrailReplay
import Foundation

/// The sample trails under `Samples/` whose replays are pinned as golden files, and their manifests.
///
/// Paths are relative to the package root, as the CLI run from there names them.
enum GoldenSamples {
    /// The package's root folder, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CrashtrailReplayTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// Where the golden outputs live.
    static let goldenFolder = packageRoot.appendingPathComponent("Samples/trails-golden/golden")

    /// The manifests samples replay with, relative to the package root.
    static let manifestPaths = [
        "Samples/PirateBay/Sources/PirateBay/piratebay.yml",
        "Samples/trails-golden/lighthouse.yml",
    ]

    /// One sample: a name for its golden files and its path relative to the package root.
    struct Sample: CustomStringConvertible, Sendable {
        let name: String
        let path: String
        var description: String { name }
    }

    /// Every sample trail, sorted by name.
    static let trails: [Sample] = {
        let folder = "Samples/trails-golden/trails"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map {
            Sample(name: String($0.dropLast(".json".count)), path: "\(folder)/\($0)")
        }
    }()

    /// The manifests, named by their relative paths so outputs do not depend on where the package is.
    static func manifests() throws -> [Manifest] {
        try manifestPaths.map { path in
            let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
            return try Manifest(yaml: text, source: path)
        }
    }

    /// The bytes of a sample.
    static func bytes(of sample: Sample) throws -> [UInt8] {
        Array(try Data(contentsOf: packageRoot.appendingPathComponent(sample.path)))
    }
}
