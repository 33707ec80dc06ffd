import CrashtrailEncoding
import Hummingbird

/// Reads a request's body whole within Sentry's limits, and inflates it when it was sent with
/// `Content-Encoding: gzip`, `deflate` or `br`.
///
/// A body is refused as soon as it passes a limit: a declared `Content-Length` over the limit before any byte is
/// read, a streamed body at the first chunk past it, and a compressed body the moment its inflated bytes would pass
/// the decompressed limit, so a decompression bomb costs at most that limit in memory.
enum RequestBodyReader {
    /// How a body was compressed (`Content-Encoding`).
    enum Compression: Equatable {
        case zlib(ZlibStream.Wrapper)
        case brotli
    }

    /// The body's bytes, inflated.
    /// - Parameters:
    ///   - request: the request.
    ///   - limits: the limits it must keep to.
    ///   - what: what the body is, for the answers (`a request`, `an event`).
    /// - Returns: the body, inflated when it was compressed.
    /// - Throws: `RequestError`: 413 over a limit, 400 for an encoding it does not know or a body that does not inflate.
    static func read(_ request: Request, limits: ServeOptions.Limits, what: String = "a request") async throws -> [UInt8] {
        let encoding = request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "identity"
        let compression: Compression?
        switch encoding {
        case "", "identity": compression = nil
        case "gzip", "x-gzip": compression = .zlib(.gzip)
        case "deflate": compression = .zlib(.deflate)
        case "br": compression = .brotli
        default:
            throw RequestError.badRequest("Content-Encoding \(encoding) is not supported; send the body plain, gzip, deflate or br")
        }
        let limit = compression == nil ? limits.decompressedBody : limits.compressedBody
        let bytes = try await bounded(
            request, limit: limit, for: compression == nil ? what : "a compressed request")
        guard let compression else { return bytes }
        let overCap = RequestError.tooLarge(
            "the \(encoding) body inflates to more than \(limits.decompressedBody) bytes, over the limit for \(what); it was not inflated further"
        )
        switch compression {
        case .zlib(let wrapper):
            do {
                return try ZlibStream.inflated(bytes, wrapper: wrapper, cap: limits.decompressedBody)
            } catch  where error.code == .overCap {
                throw overCap
            } catch {
                throw RequestError.badRequest("the \(encoding) body could not be inflated: \(error.message)")
            }
        case .brotli:
            do {
                return try BrotliBody.inflated(bytes, cap: limits.decompressedBody)
            } catch .overCap {
                throw overCap
            } catch .truncated {
                throw RequestError.badRequest("the br body could not be inflated: it ends before its stream does, or bytes follow it")
            } catch .corrupt(let reason) {
                throw RequestError.badRequest("the br body could not be inflated: it is not a Brotli stream (\(reason))")
            }
        }
    }

    /// A request's body as sent, refused past `limit` bytes: at once when its `Content-Length` says so, else at the
    /// first chunk past it.
    /// - Parameters:
    ///   - request: the request.
    ///   - limit: the most bytes it may have.
    ///   - what: what the body is, for the answer (`an event`, `an upload request`).
    /// - Returns: the body's bytes.
    /// - Throws: `RequestError` (413) over the limit.
    static func bounded(_ request: Request, limit: Int, for what: String) async throws -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw RequestError.tooLarge("the body is \(declared) bytes, over the limit of \(limit) bytes for \(what)")
        }
        var bytes: [UInt8] = []
        for try await chunk in request.body {
            guard bytes.count + chunk.readableBytes <= limit else {
                throw RequestError.tooLarge("the body is over the limit of \(limit) bytes for \(what)")
            }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        return bytes
    }
}
