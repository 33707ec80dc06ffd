import CrashtrailEncoding
import Foundation

/// Real release crashes of the CrashProbe app on three architectures, with the symbol tables of its device builds'
/// debug files (Tests/Fixtures/crashprobe, from Sentry's symbolic; SOURCES.md there).
public enum CrashProbeFixtures {
    /// The folder of the gzipped fixtures.
    public static let folder = PackageRoot.url.appendingPathComponent("Tests/Fixtures/crashprobe")

    /// Gunzips the fixtures into `target`: the crash files in it, the debug files in `target/debug`.
    /// - Returns: the folder of the debug files.
    @discardableResult
    public static func unpack(into target: URL) throws -> URL {
        let debug = target.appendingPathComponent("debug")
        try FileManager.default.createDirectory(at: debug, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".gz") {
            let bytes = try ZlibStream.inflated(
                [UInt8](Data(contentsOf: folder.appendingPathComponent(name))), wrapper: .gzip, cap: 16 << 20)
            let plain = String(name.dropLast(3))
            let destination = plain.hasSuffix(".json") ? target.appendingPathComponent(plain) : debug.appendingPathComponent(plain)
            try Data(bytes).write(to: destination)
        }
        return debug
    }
}
