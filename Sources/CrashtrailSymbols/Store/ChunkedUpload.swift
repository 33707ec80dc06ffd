import CrashtrailCore
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
        /// It can never be stored, and why.
        case error(String)
    }

    let store: ReportStore
    let importer: DebugFileImport

    /// An upload into `store` whose assembled files derive waiting reports again through `importer`.
    package init(store: ReportStore, importer: DebugFileImport) {
        self.store = store
        self.importer = importer
    }

    /// Keeps a chunk, once its bytes are checked against the SHA-1 the client named it by.
    /// - Throws: ``ChunkedUploadError`` when the bytes do not match or are too many; `StoreError`.
    package func keepChunk(named sha1: String, bytes: [UInt8]) throws {
        guard bytes.count <= Self.chunkSize else {
            throw ChunkedUploadError(.tooLarge, "the chunk \(sha1) is \(bytes.count) bytes, over the chunk size of \(Self.chunkSize)")
        }
        let actual = Self.sha1(bytes)
        guard actual == sha1.lowercased() else {
            throw ChunkedUploadError(
                .checksumMismatch, "the chunk named \(sha1) has SHA-1 \(actual): it was damaged on the way; send it again")
        }
        try store.addUploadChunk(sha1: actual, bytes: bytes, added: importer.time.rfc3339())
    }

    /// Assembles each file whose chunks are all kept and stores its slices.
    /// - Returns: each file's state, by its checksum.
    /// - Throws: `StoreError` when the store cannot be read or written.
    package func assemble(_ files: [File]) throws -> [String: State] {
        var states: [String: State] = [:]
        for file in files {
            states[file.checksum] = try assemble(file)
        }
        return states
    }

    private func assemble(_ file: File) throws -> State {
        let checksum = file.checksum.lowercased()
        // A thin file is stored under its own SHA-1; a universal one's slices are found by the file's.
        if let stored = try store.debugFile(sha1: checksum).map({ [$0] }) ?? store.uploadedFile(checksum: checksum) {
            return .ok(
                stored.map { stored in
                    DebugFileImport.Slice(
                        uuid: stored.uuid, arch: stored.arch, name: stored.name, kind: stored.kind, isNew: false, source: file.name)
                })
        }
        guard !file.chunks.isEmpty else { return .error("the file \(file.name) names no chunks") }
        guard Int64(file.chunks.count) * Int64(Self.chunkSize) <= Self.maximumFileSize + Int64(Self.chunkSize) else {
            return .error("the file \(file.name) has \(file.chunks.count) chunks, over the limit of \(Self.maximumFileSize) bytes")
        }
        let kept = try store.uploadChunks(among: file.chunks.map { $0.lowercased() })
        let missing = file.chunks.filter { !kept.contains($0.lowercased()) }
        guard missing.isEmpty else { return .notFound(missing: missing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(
            (file.name as NSString).lastPathComponent.isEmpty ? "debug-file" : (file.name as NSString).lastPathComponent)
        guard FileManager.default.createFile(atPath: path.path, contents: nil) else { return .error("\(path.path) cannot be written") }
        let handle = try FileHandle(forWritingTo: path)
        var hash = Insecure.SHA1()
        for chunk in file.chunks {
            guard let bytes = try store.uploadChunk(sha1: chunk.lowercased()) else {
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
        let slices: [DebugFileImport.Slice]
        do {
            slices = try importer.store(DebugFileFinder.Candidate(path: path.path, name: file.name))
        } catch let error as StoreError {
            throw error
        } catch {
            return .error("\(error)")
        }
        try store.recordUploadedFile(checksum: checksum, uuids: slices.map(\.uuid))
        // Chunks of a stored file are forgotten, as are those of uploads abandoned a day ago.
        try store.removeUploadChunks(
            file.chunks.map { $0.lowercased() }, addedBefore: Timestamp.rfc3339(milliseconds: importer.time.now() - 86_400_000))
        return .ok(slices)
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
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
