import CrashtrailTestSupport
import Foundation
import Testing

/// An app that depends on the app-side libraries only (SPEC section 18: "a light dependency") resolves no package
/// that only the collector needs: Samples/AppConsumer, resolved by SwiftPM as an app's package would be.
@Suite struct AppSideDependencyTests {
    /// The packages the collector, store, server and tool need, which an app must never resolve.
    static let collectorOnly: Set<String> = [
        "grdb.swift", "postgres-nio", "swift-nio", "swift-nio-ssl", "hummingbird", "async-http-client", "swift-prometheus",
        "swift-metrics", "swift-service-lifecycle", "multipart-kit", "zipfoundation", "swift-argument-parser", "swift-mustache",
        "swift-snapshot-testing", "swift-log", "swift-http-types",
    ]

    /// `swift` on the PATH, which the test runs to resolve the consumer.
    static let swift: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swift") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test("Samples/AppConsumer resolves Yams, swift-crypto and what they need, and no collector package", .enabled(if: swift != nil))
    func resolvesNoCollectorPackage() throws {
        // Given the consumer in a temporary folder, beside a link named `crashtrail` to this package
        let folder = try TemporaryFolder("app-consumer")
        defer { folder.remove() }
        let link = folder.url.appendingPathComponent("crashtrail")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: PackageRoot.url)
        let consumer = folder.url.appendingPathComponent("AppConsumer")
        try FileManager.default.copyItem(at: PackageRoot.url.appendingPathComponent("Samples/AppConsumer"), to: consumer)
        let manifest = consumer.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains(#"path: "../..""#))
        try text.replacingOccurrences(of: #"path: "../..""#, with: "path: \"\(link.path)\"")
            .write(to: manifest, atomically: true, encoding: .utf8)

        // When SwiftPM resolves it
        let process = Process()
        process.executableURL = Self.swift  // the test is enabled only when it is found
        process.arguments = [
            "package", "resolve", "--package-path", consumer.path, "--scratch-path", folder.url.appendingPathComponent("build").path,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package resolve failed: \(message)")

        // Then it pins only the app side's packages
        let resolved = try Data(contentsOf: consumer.appendingPathComponent("Package.resolved"))
        let object = try #require(try JSONSerialization.jsonObject(with: resolved) as? [String: Any])
        let pins = try #require(object["pins"] as? [[String: Any]])
        let identities = Set(pins.compactMap { $0["identity"] as? String })
        #expect(
            identities.isDisjoint(with: Self.collectorOnly), "collector packages resolved: \(identities.intersection(Self.collectorOnly))")
        #expect(identities.isSubset(of: ["yams", "swift-crypto", "swift-asn1", "swift-syntax"]), "resolved: \(identities.sorted())")
        #expect(identities.contains("yams") && identities.contains("swift-crypto"))
    }
}
