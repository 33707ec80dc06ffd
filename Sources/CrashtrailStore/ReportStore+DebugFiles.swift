import CrashtrailCore
import CrashtrailReports
import Crypto
import Foundation

/// The debug files a store keeps (SPEC section 16), in chunks so a large one is streamed in and out with bounded
/// memory, and the index of the images each report's frames name.
extension ReportStore {
    /// The size of the chunks a debug file is kept in.
    package static let debugFileChunkSize = 4 << 20

    /// Stores a debug file slice for its project, unless the project has one with its UUID, in one transaction: all of
    /// it or none.
    ///
    /// A slice with DWARF replaces a stored one of the project that has only a symbol table (the shipped binary, added
    /// before its dSYM), and the project's reports derived with the symbol table are marked to be derived again.
    /// The slice's bytes are read once: its SHA-1 is taken from the chunks as they are stored.
    /// - Parameters:
    ///   - file: the slice's description; its `sha1` is replaced by the SHA-1 of the chunks stored.
    ///   - chunk: the bytes of chunk `n` (each ``debugFileChunkSize`` bytes but the last), or nil past the last; called
    ///     again from the first when the backend runs the transaction again.
    /// - Returns: whether it was new to the store, and the SHA-1 of its bytes (nil when it was not stored).
    /// - Throws: `StoreError` (`database`), or what `chunk` throws, wrapped.
    @discardableResult
    package func addDebugFile(_ file: DebugFile, chunk: (Int) throws -> [UInt8]?) throws(StoreError) -> (isNew: Bool, sha1: String?) {
        let key: [StoreValue] = [StoreValue(file.project), .text(file.uuid)]
        return try write { db in
            if file.kind == "dwarf",
                try db.execute("DELETE FROM debugFile WHERE project = ? AND uuid = ? AND kind <> 'dwarf'", key) > 0
            {
                try db.execute("DELETE FROM debugFileChunk WHERE project = ? AND uuid = ?", key)
                try Self.markUnsymbolicated(uuid: file.uuid, project: file.project, in: db)
            }
            // The row first (its chunks refer to it), its SHA-1 set once the chunks are stored, in the same transaction.
            let inserted = try db.execute(
                """
                INSERT INTO debugFile (project, uuid, arch, name, kind, textVMAddr, size, sha1, added) VALUES (?, ?, ?, ?, ?, ?, ?, '', ?)
                ON CONFLICT (project, uuid) DO NOTHING
                """,
                key + [
                    .text(file.arch), .text(file.name), .text(file.kind), .integer(Int64(bitPattern: file.textVMAddr)),
                    .integer(file.size), .text(file.added),
                ])
            guard inserted > 0 else { return (false, nil) }
            var hash = Insecure.SHA1()
            var sequence = 0
            while let bytes = try chunk(sequence) {
                hash.update(data: bytes)
                try db.execute(
                    "INSERT INTO debugFileChunk (project, uuid, seq, data) VALUES (?, ?, ?, ?)",
                    key + [.integer(Int64(sequence)), .blob(Data(bytes))])
                sequence += 1
            }
            let sha1 = Hex.lowercase(hash.finalize())
            try db.execute("UPDATE debugFile SET sha1 = ? WHERE project = ? AND uuid = ?", [.text(sha1)] + key)
            // A project's own debug file wins over one kept for every project: its reports derived with that one are
            // derived again.
            if file.project != .unassigned {
                try Self.markUnsymbolicated(uuid: file.uuid, project: file.project, in: db)
            }
            return (true, sha1)
        }
    }

    /// Marks the images `uuid` of `project`'s reports as not yet symbolicated with the project's debug file (every
    /// project's for a file of no project), so they are derived again.
    private static func markUnsymbolicated(uuid: String, project: ProjectScope, in db: any StoreTransaction) throws {
        guard case .one(let project) = project else {
            try db.execute("UPDATE reportImage SET symbolicated = 0 WHERE uuid = ? AND symbolicated = 1", [.text(uuid)])
            return
        }
        try db.execute(
            """
            UPDATE reportImage SET symbolicated = 0
            WHERE uuid = ? AND symbolicated = 1 AND reportID IN (SELECT id FROM report WHERE project = ?)
            """, [.text(uuid), StoreValue(project)])
    }

    /// The condition, on `reportImage i` joined to `report r`, that a stored debug file describes the image for the
    /// report's project: the project's own, or one kept for every project.
    static let imageHasDebugFile =
        "EXISTS (SELECT 1 FROM debugFile d WHERE d.uuid = i.uuid AND d.project IN (r.project, 0))"

    /// Every stored debug file, by name, then architecture, UUID and project.
    /// - Throws: `StoreError` (`database`).
    public func debugFiles() throws(StoreError) -> [DebugFile] {
        try read { db in try db.rows("SELECT * FROM debugFile ORDER BY name, arch, uuid, project", []).map(Self.debugFile) }
    }

    /// The debug file with `uuid` that symbolicates `project`'s crashes, if any (``DebugFile/chosen(own:every:)``).
    /// - Throws: `StoreError` (`database`).
    public func debugFile(uuid: String, project: ProjectID) throws(StoreError) -> DebugFile? {
        let files = try read { db in
            try db.rows(
                "SELECT * FROM debugFile WHERE uuid = ? AND project IN (?, ?)",
                [.text(uuid), StoreValue(project), StoreValue(ProjectScope.unassigned)]
            ).map(Self.debugFile)
        }
        return DebugFile.chosen(
            own: files.first { $0.project == .one(project) }, every: files.first { $0.project == .unassigned })
    }

    /// The UUIDs of the debug files that may name `project`'s crashes: its own and those kept for every project.
    /// - Throws: `StoreError` (`database`).
    package func debugFileUUIDs(project: ProjectID) throws(StoreError) -> Set<String> {
        try read { db in
            Set(
                try db.strings(
                    "SELECT uuid FROM debugFile WHERE project IN (?, ?)",
                    [StoreValue(project), StoreValue(ProjectScope.unassigned)]))
        }
    }

    /// Calls `body` with each chunk of the debug file `uuid` of `project` (its own project, as ``DebugFile/project``
    /// says), in order, from a cursor: one chunk in memory at a time.
    /// - Throws: `StoreError` (`database`), or what `body` throws, wrapped.
    package func forEachDebugFileChunk(uuid: String, project: ProjectScope, _ body: ([UInt8]) throws -> Void) throws(StoreError) {
        try read { db in
            try db.forEachRow(
                "SELECT data FROM debugFileChunk WHERE project = ? AND uuid = ? ORDER BY seq", [StoreValue(project), .text(uuid)]
            ) { row in
                guard let data = row.data("data") else { throw StoreError(.database, "a chunk of debug file \(uuid) is not bytes") }
                try body([UInt8](data))
            }
        }
    }

    /// The images stored reports' frames name in the app's own code that no debug file describes, the most awaited first.
    /// - Throws: `StoreError` (`database`).
    public func missingDebugFiles() throws(StoreError) -> [MissingDebugFile] {
        try read { db in
            var versions: [String: Set<String>] = [:]
            var found: [String: (name: String, reports: Int)] = [:]
            try db.forEachRow(
                """
                SELECT i.uuid, i.name, r.appVersion FROM reportImage i JOIN report r ON r.id = i.reportID
                WHERE i.inApp = 1 AND NOT \(Self.imageHasDebugFile)
                """, []
            ) { row in
                let uuid = try row.requiredString("uuid")
                let name = try row.requiredString("name")
                found[uuid, default: (name, 0)].reports += 1
                if let version = row.string("appVersion") { versions[uuid, default: []].insert(version) }
            }
            return found.map { uuid, image in
                MissingDebugFile(
                    uuid: uuid, name: image.name, appVersions: (versions[uuid] ?? []).sorted(by: CanonicalJSON.codePointPrecedes),
                    reports: image.reports)
            }.sorted { ($0.reports, $1.uuid) > ($1.reports, $0.uuid) }
        }
    }

    /// The app's images each report names that no stored debug file describes, for the reports with `signature` (one
    /// group) or the one report `reportID`: what a report's page lists as missing.
    /// - Returns: by report ID, each image's name and UUID, by name.
    /// - Throws: `StoreError` (`database`).
    package func imagesWithoutDebugFiles(
        signature: String? = nil, reportID: String? = nil
    ) throws(StoreError) -> [String: [(name: String, uuid: String)]] {
        let (condition, value) = reportID.map { ("i.reportID = ?", $0) } ?? ("r.signature = ?", signature ?? "")
        return try read { db in
            var images: [String: [(name: String, uuid: String)]] = [:]
            try db.forEachRow(
                """
                SELECT i.reportID, i.uuid, i.name FROM reportImage i JOIN report r ON r.id = i.reportID
                WHERE \(condition) AND i.inApp = 1 AND NOT \(Self.imageHasDebugFile)
                ORDER BY i.reportID, i.name, i.uuid
                """, [.text(value)]
            ) { row in
                images[try row.requiredString("reportID"), default: []].append(
                    (try row.requiredString("name"), try row.requiredString("uuid")))
            }
            return images
        }
    }

    /// The IDs of the stored reports whose frames name an image that has a debug file they were not derived with: what
    /// `symbols add` and `serve` derive again, and what a job killed midway left to do.
    /// - Throws: `StoreError` (`database`).
    package func reportsAwaitingStoredDebugFiles() throws(StoreError) -> [String] {
        try read { db in
            try db.strings(
                """
                SELECT DISTINCT i.reportID FROM reportImage i JOIN report r ON r.id = i.reportID
                WHERE i.symbolicated = 0 AND \(Self.imageHasDebugFile) ORDER BY i.reportID
                """, [])
        }
    }

    /// How many stored reports wait for a debug file the store has (``reportsAwaitingStoredDebugFiles()``): `/metrics`'
    /// `crashtrail_reports_awaiting_symbols`.
    /// - Throws: `StoreError` (`database`).
    package func countReportsAwaitingStoredDebugFiles() throws(StoreError) -> Int {
        try read { db in
            Int(
                try db.value(
                    """
                    SELECT COUNT(DISTINCT i.reportID) FROM reportImage i JOIN report r ON r.id = i.reportID
                    WHERE i.symbolicated = 0 AND \(Self.imageHasDebugFile)
                    """, []
                )?.integer ?? 0)
        }
    }

    /// The debug file of `project` whose slice has this SHA-1, if any: an upload of a file the project has stored.
    /// - Throws: `StoreError` (`database`).
    package func debugFile(sha1: String, project: ProjectID) throws(StoreError) -> DebugFile? {
        try read { db in
            try db.rows("SELECT * FROM debugFile WHERE sha1 = ? AND project = ? LIMIT 1", [.text(sha1), StoreValue(project)]).first
                .map(Self.debugFile)
        }
    }

    /// The debug files of `project` stored from the uploaded file whose whole SHA-1 is `checksum`, when it was assembled
    /// for the project before and each of them is still stored; nil otherwise (the file's chunks are then asked for).
    /// - Throws: `StoreError` (`database`).
    package func uploadedFile(checksum: String, project: ProjectID) throws(StoreError) -> [DebugFile]? {
        let project = StoreValue(project)
        return try read { db in
            let uuids = try db.strings(
                "SELECT uuid FROM uploadedFile WHERE project = ? AND checksum = ? ORDER BY uuid", [project, .text(checksum)])
            guard !uuids.isEmpty else { return nil }
            let files = try uuids.compactMap { uuid in
                try db.rows("SELECT * FROM debugFile WHERE project = ? AND uuid = ?", [project, .text(uuid)]).first.map(Self.debugFile)
            }
            return files.count == uuids.count ? files : nil
        }
    }

    /// Remembers that the uploaded file `checksum` held the debug files `uuids` of `project` (each stored).
    /// - Throws: `StoreError` (`database`).
    package func recordUploadedFile(checksum: String, uuids: [String], project: ProjectID) throws(StoreError) {
        guard !uuids.isEmpty else { return }
        try write { db in
            for uuid in Set(uuids).sorted() {
                try db.execute(
                    "INSERT INTO uploadedFile (project, checksum, uuid) VALUES (?, ?, ?) ON CONFLICT (project, checksum, uuid) DO NOTHING",
                    [StoreValue(project), .text(checksum), .text(uuid)])
            }
        }
    }

    /// Keeps an uploaded chunk by its SHA-1, counted against `project`'s upload quota, unless it would take the
    /// project past `quota`; the same chunk again changes nothing.
    ///
    /// The project's bytes are counted and the chunk kept in one write transaction, the project's row locked first on
    /// PostgreSQL (SQLite has one writer): uploads racing one another cannot pass the quota together.
    /// - Parameters:
    ///   - sha1: the chunk's SHA-1, checked.
    ///   - bytes: its bytes.
    ///   - added: when it came, RFC 3339.
    ///   - project: the project whose quota it counts against: its token's; `.all` for an operator's token, which has none.
    ///   - quota: the most bytes of chunks the project may keep; nil for no bound.
    /// - Returns: nil when the chunk is kept (or was before); else the bytes the project keeps, which it would pass the
    ///   quota with.
    /// - Throws: `StoreError` (`database`).
    @discardableResult
    package func addUploadChunk(sha1: String, bytes: [UInt8], added: String, project: ProjectScope = .all, quota: Int64? = nil)
        throws(StoreError)
        -> Int64?
    {
        try write { db in
            if let quota, let owner = project.project {
                _ = try db.rows("SELECT id FROM project WHERE id = ?\(db.dialect.lockingRead)", [StoreValue(owner)])
                guard
                    try db.rows("SELECT 1 AS one FROM uploadChunk WHERE project = ? AND sha1 = ?", [StoreValue(project), .text(sha1)])
                        .isEmpty
                else { return nil }
                let kept = try Self.uploadChunkBytes(project: project, in: db)
                guard kept + Int64(bytes.count) <= quota else { return kept }
            }
            try db.execute(
                "INSERT INTO uploadChunk (sha1, data, added, project) VALUES (?, ?, ?, ?) ON CONFLICT (project, sha1) DO NOTHING",
                [.text(sha1), .blob(Data(bytes)), .text(added), StoreValue(project)])
            return nil
        }
    }

    /// The bytes of upload chunks kept for `project` and not yet assembled: what its upload quota counts.
    /// - Throws: `StoreError` (`database`).
    package func uploadChunkBytes(project: ProjectScope) throws(StoreError) -> Int64 {
        try read { db in try Self.uploadChunkBytes(project: project, in: db) }
    }

    /// ``uploadChunkBytes(project:)`` inside a transaction.
    private static func uploadChunkBytes(project: ProjectScope, in db: any StoreTransaction) throws -> Int64 {
        try db.value("SELECT COALESCE(SUM(length(data)), 0) FROM uploadChunk WHERE project = ?", [StoreValue(project)])?.integer
            ?? 0
    }

    /// The size of each of `sha1s` the store holds as a chunk `project`'s token uploaded (`.all`: an operator's).
    /// - Throws: `StoreError` (`database`).
    package func uploadChunkSizes(among sha1s: [String], project: ProjectScope) throws(StoreError) -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        let distinct = Array(Set(sha1s))
        var start = 0
        while start < distinct.count {
            let slice = Array(distinct[start..<min(distinct.count, start + 500)])
            start += slice.count
            let placeholders = slice.map { _ in "?" }.joined(separator: ", ")
            let rows = try read { db in
                try db.rows(
                    "SELECT sha1, length(data) AS size FROM uploadChunk WHERE project = ? AND sha1 IN (\(placeholders))",
                    [StoreValue(project)] + slice.map { .text($0) })
            }
            for row in rows {
                if let sha1 = row.string("sha1") { sizes[sha1] = row.int64("size") ?? 0 }
            }
        }
        return sizes
    }

    /// Forgets the upload chunks added before `before` that no assemble used.
    /// - Returns: how many were forgotten.
    /// - Throws: `StoreError` (`database`).
    @discardableResult
    package func removeUploadChunks(addedBefore before: String) throws(StoreError) -> Int {
        try write { db in try db.execute("DELETE FROM uploadChunk WHERE added < ?", [.text(before)]) }
    }

    /// Which of `sha1s` the store holds as chunks `project`'s token uploaded (`.all`: an operator's).
    /// - Throws: `StoreError` (`database`).
    package func uploadChunks(among sha1s: [String], project: ProjectScope) throws(StoreError) -> Set<String> {
        Set(try uploadChunkSizes(among: sha1s, project: project).keys)
    }

    /// The bytes of the chunk `sha1` that `project`'s token uploaded (`.all`: an operator's), if the store holds it.
    /// - Throws: `StoreError` (`database`).
    package func uploadChunk(sha1: String, project: ProjectScope) throws(StoreError) -> [UInt8]? {
        try read { db in
            try db.rows("SELECT data FROM uploadChunk WHERE project = ? AND sha1 = ?", [StoreValue(project), .text(sha1)]).first?
                .data("data").map { [UInt8]($0) }
        }
    }

    /// Forgets the chunks `sha1s` that `project` uploaded (a file they made is stored), and every chunk added before
    /// `before`.
    /// - Throws: `StoreError` (`database`).
    package func removeUploadChunks(_ sha1s: [String], project: ProjectScope, addedBefore before: String) throws(StoreError) {
        try write { db in
            for sha1 in sha1s {
                try db.execute("DELETE FROM uploadChunk WHERE project = ? AND sha1 = ?", [StoreValue(project), .text(sha1)])
            }
            try db.execute("DELETE FROM uploadChunk WHERE added < ?", [.text(before)])
        }
    }

    /// Replaces the images indexed for report `id` with `images`, inside a transaction.
    /// - Throws: the backend's error.
    package static func replaceImages(of id: String, with images: [ReportImage], in db: any StoreTransaction) throws {
        try db.execute("DELETE FROM reportImage WHERE reportID = ?", [.text(id)])
        try insertImages(images, of: id, in: db)
    }

    /// Indexes `images` for report `id`, inside a transaction.
    /// - Throws: the backend's error.
    package static func insertImages(_ images: [ReportImage], of id: String, in db: any StoreTransaction) throws {
        for image in images {
            try db.execute(
                """
                INSERT INTO reportImage (uuid, reportID, name, inApp, symbolicated) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (uuid, reportID) DO NOTHING
                """,
                [.text(image.uuid), .text(id), .text(image.name), .integer(image.inApp ? 1 : 0), .integer(image.symbolicated ? 1 : 0)])
        }
    }

    private static func debugFile(_ row: StoreRow) throws -> DebugFile {
        DebugFile(
            uuid: try row.requiredString("uuid"), arch: try row.requiredString("arch"), name: try row.requiredString("name"),
            kind: try row.requiredString("kind"), textVMAddr: UInt64(bitPattern: row.int64("textVMAddr") ?? 0),
            size: row.int64("size") ?? 0, sha1: try row.requiredString("sha1"), added: try row.requiredString("added"),
            project: try row.scope(zero: .unassigned))
    }
}
