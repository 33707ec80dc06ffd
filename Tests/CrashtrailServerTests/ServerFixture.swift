import CrashtrailService
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

@testable import CrashtrailServer

/// A service over a new SQLite store in a temporary folder, with two projects of fixed keys and the sample manifests.
struct ServerFixture {
    static let samples = PackageRoot.url.appendingPathComponent("Samples")
    static let key = "0123456789abcdef0123456789abcdef"
    static let otherKey = "fedcba9876543210fedcba9876543210"

    let folder: TemporaryFolder
    let service: TriageService
    let server: CollectorServer

    init(
        readToken: String? = nil, limits: ServeOptions.Limits = ServeOptions.Limits(), backlog: Int = 4096,
        maximumWaitingTrails: Int = 10_000, preparing: (TriageService) throws -> Void = { _ in }
    ) throws {
        folder = try TemporaryFolder("crashtrail-serve")
        let location = StoreLocation(folder.url.appendingPathComponent("store.sqlite").path)
        service = try TriageService(location: location, creating: true)
        try preparing(service)
        let manifests = try LoadedManifest.load([
            Self.samples.appendingPathComponent("PirateBay/Sources/PirateBay/piratebay.yml").path
        ])
        let options = ServeOptions(
            host: "127.0.0.1", port: 0,
            projects: [Project(id: 1, name: "ios", key: Self.key), Project(id: 2, name: "android", key: Self.otherKey)],
            quarantineDirectory: folder.url.appendingPathComponent("quarantine").path, backlog: backlog, readToken: readToken,
            limits: limits, maximumWaitingTrails: maximumWaitingTrails)
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
