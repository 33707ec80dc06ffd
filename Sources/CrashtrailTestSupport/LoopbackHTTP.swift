import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client over a loopback TCP socket, for tests that must send what no well-behaved client sends:
/// bodies that end early, huge headers, connections left idle.
public final class LoopbackConnection: @unchecked Sendable {
    /// A response read whole.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout` seconds.
    /// - Throws: `POSIXError` when the connection fails.
    public init(port: Int, timeout: Double = 10) throws {
        #if canImport(Glibc)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .ECONNREFUSED)
        }
        var wait = timeval()
        wait.tv_sec = .init(timeout.rounded(.down))
        wait.tv_usec = .init((timeout - timeout.rounded(.down)) * 1e6)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`.
    /// - Returns: false when the peer closed the connection first.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads one response (a `Content-Length` body, or up to the end of the connection).
    /// - Returns: nil when the connection ended or timed out before a whole response.
    public func readResponse() -> Response? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[0..<count]
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            guard fill() else { return nil }
            headerEnd = buffer.firstRange(of: separator)?.lowerBound
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(buffer[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            while body.count < length {
                let before = buffer.count
                guard fill() else { return nil }
                body += buffer[before...]
            }
            body = Array(body.prefix(length))
        } else {
            while fill() {}
            body = Array(buffer[(end + 4)...])
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Sends one request and reads its response.
    public func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) -> Response? {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard write(Array(head.utf8) + body) else { return nil }
        return readResponse()
    }

    /// Sends one request on a new connection and reads its response.
    public static func request(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [], timeout: Double = 10
    ) -> Response? {
        guard let connection = try? LoopbackConnection(port: port, timeout: timeout) else { return nil }
        return connection.request(method, path, headers: headers, body: body)
    }
}
