import CrashtrailCore
import CrashtrailEncoding
import CrashtrailStore
import CrashtrailSymbols
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MultipartKit

/// Debug files uploaded as Sentry's tools upload them (SPEC section 16).
///
/// `sentry-cli debug-files upload`, and the fastlane and Xcode build-phase scripts built on it, work with `SENTRY_URL`
/// pointed at the service and a token with the `debug-files` scope as the auth token (SPEC section 19; a DSN key is
/// refused with 403):
///
/// - `GET /api/0/organizations/ORG/chunk-upload/`: how to upload (chunk size, limits, SHA-1, gzip);
/// - `POST /api/0/organizations/ORG/chunk-upload/`: chunks, as multipart parts named by their SHA-1;
/// - `POST /api/0/projects/ORG/PROJECT/files/difs/assemble/`: each file from its chunks, stored as `symbols add` stores
///   one; the stored reports waiting for it are then symbolicated in the background.
struct DebugFileRoutes: Sendable {
    let projects: ProjectRegistry
    let upload: ChunkedUpload
    let symbolication: SymbolicationWorker
    let metrics: ServerMetrics
    let logger: Logger

    /// The body of a chunk request: the chunks and the multipart framing around them.
    static let maximumChunkRequest = ChunkedUpload.maximumRequestSize + (1 << 20)
    /// The body of an assemble request.
    static let maximumAssembleRequest = 4 << 20

    func add(to router: Router<BasicRequestContext>) {
        let routes = self
        let organization = router.group("api/0/organizations/:organization")
        organization.get("chunk-upload") { request, _ in try routes.options(request) }
        organization.post("chunk-upload") { request, _ in try await routes.chunks(request) }
        router.post("api/0/projects/:organization/:project/files/difs/assemble") { request, context in
            try await routes.assemble(request, project: context.parameters.get("project") ?? "")
        }
    }

    /// `GET chunk-upload/`: how sentry-cli must upload.
    func options(_ request: Request) throws -> Response {
        _ = try projects.authorizeToken(Self.token(request), scope: .debugFiles, project: nil, anyProject: true)
        let answer: JSONValue = .object([
            "url": .string(request.uri.path), "chunkSize": .int(Int64(ChunkedUpload.chunkSize)),
            "chunksPerRequest": .int(Int64(ChunkedUpload.chunksPerRequest)), "maxFileSize": .int(upload.limits.maximumFileSize),
            "maxRequestSize": .int(Int64(ChunkedUpload.maximumRequestSize)), "concurrency": .int(4), "hashAlgorithm": .string("sha1"),
            "compression": .array([.string("gzip")]), "accept": .array([.string("debug_files")]),
        ])
        return Response.json(CanonicalJSON.string(of: answer))
    }

    /// `POST chunk-upload/`: each part a chunk named by its SHA-1, gzipped when named `file_gzip`.
    func chunks(_ request: Request) async throws -> Response {
        // The organization endpoint names no project: the chunks count against the token's project (an operator's
        // token's against none).
        let token = try projects.authorizeToken(Self.token(request), scope: .debugFiles, project: nil, anyProject: true)
        guard let type = request.headers[.contentType], let boundary = Self.boundary(type) else {
            throw RequestError.badRequest(
                "a chunk upload is multipart/form-data with a boundary; Content-Type was \(request.headers[.contentType] ?? "none")")
        }
        let body = try await Self.body(request, limit: Self.maximumChunkRequest)
        let parts = try Self.parts(body, boundary: boundary)
        guard parts.count <= ChunkedUpload.chunksPerRequest else {
            throw RequestError.badRequest("the request holds \(parts.count) chunks, over the limit of \(ChunkedUpload.chunksPerRequest)")
        }
        // The chunks of a request, inflated, hold at most what a plain request may: a gzip chunk that inflates to the
        // chunk size, 64 times, would otherwise hold 512 MiB.
        var inflatedBytes = 0
        for part in parts {
            guard let sha1 = part.filename, sha1.count == 40, sha1.allSatisfy(\.isHexDigit) else {
                throw RequestError.badRequest(
                    "a chunk must be named by its SHA-1 (40 hex digits) as its filename; part \(part.name ?? "?") is named \(part.filename ?? "nothing")"
                )
            }
            var bytes = part.bytes
            let room = ChunkedUpload.maximumRequestSize - inflatedBytes
            guard room > 0, part.name == "file_gzip" || bytes.count <= room else {
                throw RequestError.tooLarge(
                    "the request's chunks hold more than the \(ChunkedUpload.maximumRequestSize) bytes a request may carry; send them in more requests"
                )
            }
            if part.name == "file_gzip" {
                let cap = min(ChunkedUpload.chunkSize, room)
                do {
                    bytes = try ZlibStream.inflated(bytes, wrapper: .gzip, cap: cap)
                } catch  where error.code == .overCap {
                    throw RequestError.tooLarge(
                        "the chunk \(sha1) inflates to more than \(cap) bytes: over the chunk size (\(ChunkedUpload.chunkSize)) or the \(ChunkedUpload.maximumRequestSize) bytes a request's chunks may hold"
                    )
                } catch {
                    throw RequestError.badRequest("the chunk \(sha1) could not be inflated: \(error.message)")
                }
            }
            inflatedBytes += bytes.count
            do {
                try upload.keepChunk(named: sha1, bytes: bytes, project: token.project)
            } catch let error as ChunkedUploadError {
                if error.code == .overQuota { metrics.refused(.uploadQuota, project: token.project.project) }
                throw error.code == .tooLarge || error.code == .overQuota
                    ? RequestError.tooLarge(error.message) : RequestError.badRequest(error.message)
            } catch {
                logger.error("an upload chunk could not be stored", metadata: ["error": "\(error)"])
                throw RequestError(
                    .serviceUnavailable, "the chunk could not be stored (the store failed; its log names why); send it again")
            }
        }
        return Response(status: .ok)
    }

    /// `POST …/files/difs/assemble/`: `{CHECKSUM: {"name", "debug_id", "chunks": [SHA-1…]}}`.
    func assemble(_ request: Request, project: String) async throws -> Response {
        // The token first: a client without one learns nothing, not even which projects exist.
        _ = try projects.authorizeToken(Self.token(request), scope: .debugFiles, project: nil, anyProject: true)
        let named = try projects.project(named: project)
        let token = try projects.authorizeToken(Self.token(request), scope: .debugFiles, project: named)
        let body = try await Self.body(request, limit: Self.maximumAssembleRequest)
        guard case .object(let object)? = try? JSONParser.parse(body) else {
            throw RequestError.badRequest("an assemble request is a JSON object of files by their SHA-1")
        }
        let files = try object.map { checksum, value -> ChunkedUpload.File in
            guard checksum.count == 40, checksum.allSatisfy(\.isHexDigit), case .array(let chunks)? = value["chunks"] else {
                throw RequestError.badRequest("each file is named by its SHA-1 and lists its chunks; \(checksum) does not")
            }
            return ChunkedUpload.File(
                checksum: checksum, name: value["name"]?.stringValue ?? checksum, chunks: chunks.compactMap(\.stringValue))
        }
        let states: [String: ChunkedUpload.State]
        do {
            // The chunks the token sent: chunk-upload keeps them under the token's project (`.all` for an operator's).
            states = try upload.assemble(files, project: named.id, uploader: token.project)
        } catch {
            logger.error("assembling uploaded debug files failed", metadata: ["error": "\(error)"])
            throw RequestError(
                .serviceUnavailable, "the debug files could not be stored (the store failed; its log names why); send them again")
        }
        var answer: [String: JSONValue] = [:]
        var stored = false
        for (checksum, state) in states {
            switch state {
            case .notFound(let missing):
                answer[checksum] = .object([
                    "state": .string("not_found"), "missingChunks": .array(missing.map(JSONValue.string)), "detail": .null,
                ])
            case .error(let detail):
                metrics.refused(.assemble, project: named.id)
                answer[checksum] = .object(["state": .string("error"), "missingChunks": .array([]), "detail": .string(detail)])
            case .mapping(let uuid):
                // Sentry's answer for a UUID map (file format uuidmap); crashtrail keeps nothing of it.
                answer[checksum] = .object([
                    "state": .string("ok"), "missingChunks": .array([]), "detail": .null,
                    "dif": .object([
                        "id": .string(uuid), "uuid": .string(uuid), "debugId": .string(uuid), "objectName": .string(uuid + ".plist"),
                        "cpuName": .string("any"), "sha1": .string(checksum), "symbolType": .string("uuidmap"),
                        "data": .object(["features": .array([.string("mapping")])]),
                    ]),
                ])
            case .ok(let slices):
                stored = true
                let dif = slices.first.map { slice -> JSONValue in
                    .object([
                        "id": .string(slice.uuid), "uuid": .string(slice.uuid), "debugId": .string(slice.uuid),
                        "objectName": .string(slice.name), "cpuName": .string(slice.arch), "sha1": .string(checksum),
                        "symbolType": .string("macho"), "data": .object(["type": .string(slice.kind == "dwarf" ? "dbg" : "lib")]),
                    ])
                }
                answer[checksum] = .object([
                    "state": .string("ok"), "missingChunks": .array([]), "detail": .null, "dif": dif ?? .null,
                ])
            }
        }
        if stored { await symbolication.kick() }
        return Response.json(CanonicalJSON.string(of: .object(answer)))
    }

    /// The token of `Authorization: Bearer TOKEN`, as sentry-cli sends its auth token.
    static func token(_ request: Request) -> String? {
        request.headers[.authorization].flatMap(ProjectKey.fromBearer)
    }

    /// A multipart body's boundary, from its Content-Type.
    static func boundary(_ contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// A part of a multipart body: its field name, its filename, its bytes.
    struct Part {
        var name: String?
        var filename: String?
        var bytes: [UInt8] = []
    }

    /// The parts of a multipart body.
    /// - Throws: `RequestError` (400) when the body is not multipart with that boundary.
    static func parts(_ body: [UInt8], boundary: String) throws -> [Part] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [Part] = []
        var current = Part()
        parser.onHeader = { field, value in
            guard field.lowercased() == "content-disposition" else { return }
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                let text = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if pair[0] == "name" { current.name = text }
                if pair[0] == "filename" { current.filename = text }
            }
        }
        parser.onBody = { buffer in current.bytes += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            parts.append(current)
            current = Part()
        }
        do {
            try parser.execute(body)
        } catch {
            throw RequestError.badRequest("the multipart body could not be read: \(error)")
        }
        return parts
    }

    /// A request's body, refused past `limit` bytes.
    static func body(_ request: Request, limit: Int) async throws -> [UInt8] {
        try await RequestBodyReader.bounded(request, limit: limit, for: "an upload request")
    }
}

/// Derives again, in the background, the stored reports that a debug file just stored describes: one run at a time,
/// and another after it when a file arrived meanwhile.
actor SymbolicationWorker {
    private let importer: DebugFileImport
    private let symbolicator: Symbolicator?
    private let logger: Logger
    private var running = false
    private var again = false
    /// Whether an `llvm-symbolizer` was found, so a run can name frames.
    nonisolated let canSymbolicate: Bool

    init(importer: DebugFileImport, symbolicator: Symbolicator?, logger: Logger) {
        self.importer = importer
        self.symbolicator = symbolicator
        self.logger = logger
        canSymbolicate = symbolicator?.canSymbolicate == true
    }

    /// Starts a run, or asks the running one to run again when it ends.
    func kick() {
        // The run reads the store's debug files again itself (`DebugFileImport.rederivePending`).
        guard !running else {
            again = true
            return
        }
        running = true
        Task.detached { [importer, symbolicator, logger] in
            repeat {
                await self.clearAgain()
                do {
                    let (summary, notice) = try importer.rederivePending(symbolicator: symbolicator)
                    if summary.examined > 0 {
                        logger.notice(
                            "symbolicated stored reports", metadata: ["examined": "\(summary.examined)", "changed": "\(summary.changed)"])
                    }
                    if let notice { logger.warning("\(notice)") }
                } catch {
                    logger.error("symbolicating stored reports failed", metadata: ["error": "\(error)"])
                }
            } while await self.finishOrAgain()
        }
    }

    private func clearAgain() { again = false }

    /// Ends the run, unless another was asked for meanwhile.
    private func finishOrAgain() -> Bool {
        if again { return true }
        running = false
        return false
    }
}
