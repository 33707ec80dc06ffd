import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

@testable import CrashtrailServer

/// A service over a new SQLite store in a temporary folder, with two projects of fixed keys (the store's projects 1,
/// `ios`, and 2, `android`), tokens to read and to upload debug files, and the sample manifests.
struct ServerFixture {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let key = "0123456789abcdef0123456789abcdef"
    static let otherKey = "fedcba9876543210fedcba9876543210"

    let folder: TemporaryFolder
    let service: TriageService
    let server: CollectorServer
    /// An operator's token with the `read` scope.
    let readToken: String
    /// Project 1's token with the `debug-files` scope.
    let uploadToken: String
    /// Project 2's token with the `debug-files` scope.
    let otherUploadToken: String

    init(
        readToken operatorToken: String? = nil, publicRead: Bool = false, limits: ServeOptions.Limits = ServeOptions.Limits(),
        trust: ServeOptions.Trust = ServeOptions.Trust(), backlog: Int = 4096,
        maximumWaitingTrails: Int = 10_000, preparing: (TriageService) throws -> Void = { _ in }
    ) throws {
        folder = try TemporaryFolder("crashtrail-serve")
        let location = StoreLocation(folder.url.appendingPathComponent("store.sqlite").path)
        service = try TriageService(location: location, creating: true)
        _ = try service.store.addProject(name: "ios", key: Self.key)
        _ = try service.store.addProject(name: "android", key: Self.otherKey)
        readToken = try service.store.addToken(project: nil, scopes: [.read], created: 0).value
        uploadToken = try service.store.addToken(project: "ios", scopes: [.debugFiles], created: 0).value
        otherUploadToken = try service.store.addToken(project: "android", scopes: [.debugFiles], created: 0).value
        try preparing(service)
        let manifests = try LoadedManifest.load([
            Self.samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path
        ])
        let options = ServeOptions(
            host: "127.0.0.1", port: 0,
            quarantineDirectory: folder.url.appendingPathComponent("quarantine").path, backlog: backlog, readToken: operatorToken,
            publicRead: publicRead, limits: limits, trust: trust, maximumWaitingTrails: maximumWaitingTrails)
        server = try CollectorServer(service: service, manifests: manifests, options: options)
    }

    func remove() { folder.remove() }

    /// A sample file's bytes.
    static func sample(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: samples.appendingPathComponent(path)))
    }

    /// Runs `body` against the service's routes, in process.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await server.application().test(.router, body)
    }

    /// The files the quarantine holds.
    var quarantined: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("quarantine").path).sorted()) ?? []
    }
}

extension TestClientProtocol {
    /// Posts `body` to `uri` with `headers`.
    func post(_ uri: String, _ body: [UInt8], headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The JSON body's `detail`, or the whole text.
    var detail: String {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["detail"] as? String ?? text
    }
}

/// Sentry's authentication header for a key.
func sentryAuth(_ key: String) -> HTTPFields {
    [.sentryAuth: "Sentry sentry_key=\(key), sentry_version=7, sentry_client=crashtrail-tests/1.0"]
}

/// `Authorization: Bearer KEY`.
func bearer(_ key: String) -> HTTPFields { [.authorization: "Bearer \(key)"] }
