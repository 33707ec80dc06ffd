import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU an HTTP request costs before `crashtrail serve` does any work of its own: a server that reads each request's
/// body whole and answers 200 with a small JSON body, as Sentry's envelope endpoint answers, and does nothing else.
///
///     crashtrail-http-floor nio|hummingbird PORT
///
/// `nio` answers from a SwiftNIO channel handler on the event loops; `hummingbird` from a Hummingbird 2 route, as
/// `serve` does. `Tools/http-floor.sh` measures both under the serve benchmark's load.
@main
enum HTTPFloor {
    static let answer = #"{"id":"0123456789abcdef0123456789abcdef"}"#

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let mode = arguments.first, ["nio", "hummingbird"].contains(mode),
            let port = arguments.last.flatMap({ Int($0) })
        else {
            print("usage: crashtrail-http-floor nio|hummingbird PORT")
            exit(2)
        }
        if mode == "nio" {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                        try channel.pipeline.syncOperations.addHandler(BodyReadingHandler())
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
            listening(port)
            try await channel.closeFuture.get()
        } else {
            let router = Router()
            router.post("/api/:project/envelope/") { request, _ -> Response in
                _ = try await request.body.collect(upTo: 1 << 20)
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: answer)))
            }
            // No log handler: the floor is HTTP alone, without the metadata a handler keeps for each request.
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { _ in listening(port) }, logger: Logger(label: "floor", factory: { _ in SwiftLogNoOpLogHandler() }))
            try await app.runService()
        }
    }
}

/// Says the server is ready, once it is bound, at once: the benchmark waits for the line.
private func listening(_ port: Int) {
    print("listening on 127.0.0.1:\(port)")
    fflush(nil)  // every output stream: `stdout` itself is shared mutable state to Swift 6
}

/// Reads a request's body into one buffer, then answers it.
final class BodyReadingHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var body: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            body = context.channel.allocator.buffer(capacity: 8192)
        case .body(var chunk):
            body?.writeBuffer(&chunk)
        case .end:
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(HTTPFloor.answer.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: HTTPFloor.answer)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            body = nil
        }
    }
}
