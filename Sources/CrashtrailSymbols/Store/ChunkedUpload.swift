import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Crypto
import Foundation

/// Sentry's chunked upload of debug files (SPEC section 16), as `sentry-cli debug-files upload` speaks it: chunks kept
/// in the store by their SHA-1 (so the instances behind a load balancer share them), then each file assembled from its
/// chunks, checked, and stored as `symbols add` stores one.
package struct ChunkedUpload: Sendable {
    /// The size of a chunk the client sends.
    package static let chunkSize = 8 << 20
    /// The most bytes of chunks one request carries.
    package static let maximumRequestSize = 32 << 20
    /// The most chunks one request carries.
    package static let chunksPerRequest = 64
    /// The largest file assembled.
    package static let maximumFileSize: Int64 = 2 << 30

    /// A file the client asks to assemble.
    package struct File: Sendable {
        /// The whole file's SHA-1.
        package var checksum: String
        package var name: String
        package var chunks: [String]

        package init(checksum: String, name: String, chunks: [String]) {
            self.checksum = checksum
            self.name = name
            self.chunks = chunks
        }
    }

    /// What became of a file: Sentry's assemble states.
    package enum State: Sendable, Equatable {
        /// Chunks are missing: the client uploads them and asks again.
        case notFound(missing: [String])
        /// Stored: its slices.
        case ok([DebugFileImport.Slice])
        /// A dSYM's UUID map (``UUIDMapping``): checked and acknowledged, as Sentry takes it, and not kept.
        case mapping(uuid: String)
        /// It can never be stored, and why.
        case error(String)
    }

    /// What an upload may hold (SPEC section 19).
    package struct Limits: Sendable {
        /// The bytes of chunks a project may keep before they are assembled.
        package var projectQuota: Int64
        /// How long a chunk no assemble used is kept, in milliseconds.
        package var chunkLifetime: Int64
        /// The largest file assembled.
        package var maximumFileSize: Int64

        package init(
            projectQuota: Int64 = 2 << 30, chunkLifetime: Int64 = 86_400_000, maximumFileSize: Int64 = ChunkedUpload.maximumFileSize
        ) {
            self.projectQuota = projectQuota
            self.chunkLifetime = chunkLifetime
            self.maximumFileSize = maximumFileSize
        }
    }

    let store: ReportStore
    let importer: DebugFileImport
    package let limits: Limits

    /// An upload into `store` whose assembled files derive waiting reports again through `importer`.
    package init(store: ReportStore, importer: DebugFileImport, limits: Limits = Limits()) {
        self.store = store
        self.importer = importer
        self.limits = limits
    }

    /// Keeps a chunk, once its bytes are checked against the SHA-1 the client named it by, counted against `project`'s
    /// quota.
    /// - Throws: ``ChunkedUploadError`` when the bytes do not match, are too many, or pass the project's quota;
    ///   `StoreError`.
    package func keepChunk(named sha1: String, bytes: [UInt8], project: ProjectScope = .all) throws {
        guard bytes.count <= Self.chunkSize else {
            throw ChunkedUploadError(.tooLarge, "the chunk \(sha1) is \(bytes.count) bytes, over the chunk size of \(Self.chunkSize)")
        }
        let actual = Self.sha1(bytes)
        guard actual == sha1.lowercased() else {
            throw ChunkedUploadError(
                .checksumMismatch, "the chunk named \(sha1) has SHA-1 \(actual): it was damaged on the way; send it again")
        }
        // Counted and kept in one transaction: racing uploads cannot pass the quota together.
        if let kept = try store.addUploadChunk(
            sha1: actual, bytes: bytes, added: importer.time.rfc3339(), project: project, quota: limits.projectQuota)
        {
            throw ChunkedUploadError(
                .overQuota,
                "\(project) keeps \(kept) bytes of chunks not yet assembled; this chunk would pass its quota of \(limits.projectQuota) bytes (serve --upload-quota). Assemble the files uploaded, or wait for chunks left unassembled to expire after \(limits.chunkLifetime / 3_600_000) hours"
            )
        }
    }

    /// Forgets the chunks no assemble used within their lifetime.
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreError`.
    @discardableResult
    package func expireChunks() throws -> Int {
        try store.removeUploadChunks(addedBefore: Timestamp.rfc3339(milliseconds: importer.time.now() - limits.chunkLifetime))
    }

    /// Assembles each file whose chunks are all kept and stores its slices for `project`.
    /// - Parameters:
    ///   - files: the files the client asks to assemble.
    ///   - project: the project whose crashes they symbolicate (SPEC section 19).
    ///   - uploader: whose chunks make them: the project of the token that sent them, `.all` for an operator's token. Only
    ///     those are read, and only those are forgotten once a file is stored: another project's chunks of the same
    ///     bytes stay that project's.
    /// - Returns: each file's state, by its checksum.
    /// - Throws: `StoreError` when the store cannot be read or written.
    package func assemble(_ files: [File], project: ProjectID, uploader: ProjectScope) throws -> [String: State] {
        var states: [String: State] = [:]
        for file in files {
            states[file.checksum] = try assemble(file, project: project, uploader: uploader)
        }
        return states
    }

    private func assemble(_ file: File, project: ProjectID, uploader: ProjectScope) throws -> State {
        let checksum = file.checksum.lowercased()
        // A thin file is stored under its own SHA-1; a universal one's slices are found by the file's. Only the
        // project's own count: another project's copy of the file symbolicates none of this project's crashes.
        if let stored = try store.debugFile(sha1: checksum, project: project).map({ [$0] })
            ?? store.uploadedFile(checksum: checksum, project: project)
        {
            return .ok(
                stored.map { stored in
                    DebugFileImport.Slice(
                        uuid: stored.uuid, arch: stored.arch, name: stored.name, kind: stored.kind, isNew: false, source: file.name)
                })
        }
        guard !file.chunks.isEmpty else { return .error("the file \(file.name) names no chunks") }
        guard Int64(file.chunks.count - 1) * Int64(Self.chunkSize) < limits.maximumFileSize else {
            return .error("the file \(file.name) has \(file.chunks.count) chunks, over the limit of \(limits.maximumFileSize) bytes")
        }
        guard file.chunks.allSatisfy({ $0.count == 40 && $0.allSatisfy(\.isHexDigit) }) else {
            return .error("the file \(file.name) names a chunk that is not a SHA-1 (40 hex digits)")
        }
        let sizes = try store.uploadChunkSizes(among: file.chunks.map { $0.lowercased() }, project: uploader)
        let missing = file.chunks.filter { sizes[$0.lowercased()] == nil }
        guard missing.isEmpty else { return .notFound(missing: missing) }
        // The file's real size, its chunks repeated as often as it names them, refused before a byte is written: a chunk
        // named a thousand times would make a file a thousand times its size.
        let size = file.chunks.reduce(Int64(0)) { $0 + (sizes[$1.lowercased()] ?? 0) }
        guard size <= limits.maximumFileSize else {
            return .error("the chunks of \(file.name) make a file of \(size) bytes, over the limit of \(limits.maximumFileSize) bytes")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(
            (file.name as NSString).lastPathComponent.isEmpty ? "debug-file" : (file.name as NSString).lastPathComponent)
        guard FileManager.default.createFile(atPath: path.path, contents: nil) else {
            return .error("\(file.name) could not be written to the service's temporary folder; send it again later")
        }
        let handle = try FileHandle(forWritingTo: path)
        var hash = Insecure.SHA1()
        for chunk in file.chunks {
            guard let bytes = try store.uploadChunk(sha1: chunk.lowercased(), project: uploader) else {
                try handle.close()
                return .notFound(missing: [chunk])
            }
            hash.update(data: bytes)
            try handle.write(contentsOf: bytes)
        }
        try handle.close()
        let actual = Hex.lowercase(hash.finalize())
        guard actual == checksum else {
            return .error("the chunks of \(file.name) make a file with SHA-1 \(actual), not \(checksum): upload it again")
        }
        if UUIDMapping.isNamed(file.name) {
            return try acknowledgeMapping(file, at: path, uploader: uploader)
        }
        let slices: [DebugFileImport.Slice]
        do {
            slices = try importer.store(DebugFileFinder.Candidate(path: path.path, name: file.name), project: project)
        } catch let error as StoreError {
            throw error
        } catch let error as MachOError {
            // Named by the file's own name: the temporary path it was written to stays in the service.
            return .error(error.message.replacingOccurrences(of: path.path, with: file.name))
        } catch {
            return .error("\(file.name) could not be read as a debug file (\(type(of: error)))")
        }
        try store.recordUploadedFile(checksum: checksum, uuids: slices.map(\.uuid), project: project)
        // Chunks of a stored file are forgotten, as are those of uploads abandoned longer ago than a chunk's lifetime.
        try store.removeUploadChunks(
            file.chunks.map { $0.lowercased() }, project: uploader,
            addedBefore: Timestamp.rfc3339(milliseconds: importer.time.now() - limits.chunkLifetime))
        return .ok(slices)
    }

    /// Checks that `file`, written at `path`, is a UUID map; its chunks are forgotten once it is.
    private func acknowledgeMapping(_ file: File, at path: URL, uploader: ProjectScope) throws -> State {
        let bytes = try [UInt8](Data(contentsOf: path))
        let mapping: UUIDMapping?
        do {
            mapping = try UUIDMapping(name: file.name, bytes: bytes)
        } catch {
            return .error(error.message)
        }
        guard let mapping else { return .error("\(file.name) is no UUID map") }
        try store.removeUploadChunks(
            file.chunks.map { $0.lowercased() }, project: uploader,
            addedBefore: Timestamp.rfc3339(milliseconds: importer.time.now() - limits.chunkLifetime))
        return .mapping(uuid: mapping.uuid)
    }

    /// The SHA-1 of `bytes`, in lower-case hex, as chunks and files are named.
    package static func sha1(_ bytes: [UInt8]) -> String {
        Hex.lowercase(Insecure.SHA1.hash(data: bytes))
    }
}

/// Why an uploaded chunk was refused.
package struct ChunkedUploadError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    package struct Code: ErrorCode {
        package let name: String
        package init(name: String) { self.name = name }

        /// The chunk's bytes do not have the SHA-1 it was named by.
        package static let checksumMismatch = Code(name: "checksum-mismatch")
        /// The chunk is larger than the chunk size.
        package static let tooLarge = Code(name: "too-large")
        /// The chunk would pass its project's upload quota.
        package static let overQuota = Code(name: "over-quota")
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
