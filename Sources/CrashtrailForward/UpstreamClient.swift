import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends envelopes to upstreams over pooled, kept-alive HTTP/1.1 connections (TLS for `https`), through
/// AsyncHTTPClient.
///
/// Its connections run on an event loop of their own, not on the event loops `serve` answers requests on, at the
/// process's priority: work that loop hands to other threads (name lookups go to a dispatch queue, which may start a
/// thread from it) would pass a lower priority on to threads that answer requests.
package final class UpstreamClient: Sendable {
    private let http: HTTPClient
    private let loop: MultiThreadedEventLoopGroup
    /// How a request's wait for an answer is bounded.
    private let timeout: TimeAmount
    /// The `sentry_client` of the auth header and the `User-Agent`.
    private let client: String

    /// - Parameters:
    ///   - timeoutSeconds: the longest a send waits for an answer.
    ///   - client: the `sentry_client` and `User-Agent`.
    package init(timeoutSeconds: Int64 = 20, client: String = "crashtrail-forward/1") {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(timeoutSeconds))
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        configuration.decompression = .enabled(limit: .size(1 << 20))
        // A redirect is answered as it is, never followed: following it would send the report and the upstream's key
        // to wherever the answer points (SPEC section 19).
        configuration.redirectConfiguration = .disallow
        loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        http = HTTPClient(eventLoopGroupProvider: .shared(loop), configuration: configuration)
        timeout = .seconds(timeoutSeconds)
        self.client = client
    }

    /// Posts `envelope` to `upstream` and says what its answer means.
    package func send(_ envelope: [UInt8], to upstream: UpstreamDSN) async -> UpstreamAnswer {
        var request = HTTPClientRequest(url: upstream.envelopeURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-sentry-envelope")
        request.headers.add(name: "X-Sentry-Auth", value: upstream.authorization(client: client))
        request.headers.add(name: "User-Agent", value: client)
        request.body = .bytes(ByteBuffer(bytes: envelope))
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return UpstreamAnswer.classify(status: Int(response.status.code), headers: headers, body: body)
        } catch {
            return .failed(reason: "\(upstream.identity) could not be reached: \(error)")
        }
    }

    /// Closes the connections, then stops the event loop.
    package func shutdown() async {
        try? await http.shutdown()
        try? await loop.shutdownGracefully()
    }
}
