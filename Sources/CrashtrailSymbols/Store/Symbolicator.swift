import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Crypto
import Foundation
import Synchronization

/// Names the functions, files and lines at frames' addresses with the store's debug files (SPEC section 16), for the
/// intake path's symbols stage and for `symbols add`, which derives again the reports a new debug file describes.
///
/// A debug file is written once from the store's chunks into a cache folder on this machine (so every machine that
/// shares a PostgreSQL store symbolicates with it), and `llvm-symbolizer` processes, one for each worker, read it there.
/// Each (UUID, address) is looked up once: a crash seen a thousand times costs one lookup.
package final class Symbolicator: Sendable {
    /// A lookup: the image's UUID, the project of the debug file to look in (``DebugFile/project``, as
    /// ``debugFile(uuid:project:)`` found it), and the address in it (`__TEXT` vmaddr plus the frame's offset).
    package struct Lookup: Hashable, Sendable {
        package var uuid: String
        package var address: UInt64
        package var project: ProjectScope

        package init(uuid: String, address: UInt64, project: ProjectScope = .one(.first)) {
            self.uuid = uuid
            self.address = address
            self.project = project
        }

        /// The debug file it looks in.
        var file: FileKey { FileKey(project: project, uuid: uuid) }
    }

    /// A stored debug file: its project and UUID.
    struct FileKey: Hashable, Sendable {
        var project: ProjectScope
        var uuid: String
    }

    private struct State {
        /// The stored debug files, by project and UUID.
        var files: [FileKey: DebugFile] = [:]
        /// Where each debug file was written on this machine.
        var paths: [FileKey: String] = [:]
        /// Every answer so far.
        var answers: [Lookup: [SymbolicatedFrame]?] = [:]
        /// Which process the next batch goes to.
        var next = 0
        /// Why the last lookup failed (a debug file that could not be written out, a symbolizer that failed), for the
        /// notice.
        var lastFailure: SymbolizerError?
        /// When the store's list of debug files was last read, on the monotonic clock.
        var refreshed: UInt64 = 0
        /// When a lookup of each debug file last failed (the symbolizer timed out, died or stayed busy), on the
        /// monotonic clock: its lookups are not asked again until ``Symbolicator/backoff`` has passed.
        var failedAt: [FileKey: UInt64] = [:]
    }

    /// How long a debug file whose lookup failed is left alone before it is asked again.
    package static let backoff: Double = 600

    /// The most answers kept; past it the cache starts again (a store's crashes name far fewer addresses).
    private static let maximumAnswers = 500_000

    private let store: ReportStore
    private let folder: URL
    /// One process for each worker, or none when no `llvm-symbolizer` was found.
    private let processes: [LLVMSymbolizer]
    private let state = Mutex(State())
    private let time: TimeSource
    /// How long a lookup waits for a symbolizer another caller uses; nil waits until it is free.
    private let busyWait: Duration?

    /// A symbolicator with the debug files `store` keeps.
    /// - Parameters:
    ///   - store: the store of debug files.
    ///   - folder: where debug files are written on this machine; `$CRASHTRAIL_SYMBOL_CACHE`, else a folder in the
    ///     system's temporary folder.
    ///   - executable: the `llvm-symbolizer` to run; found by ``SymbolizerLocator`` when not given.
    ///   - workers: how many processes may look up at once.
    ///   - time: the clock that says when the store's list of debug files is old.
    ///   - deadline: how long a batch of addresses may take before its symbolizer is killed:
    ///     `$CRASHTRAIL_SYMBOLIZER_TIMEOUT` when set, else this (a batch job's 60 s by default; a service gives 10 s).
    ///   - busyWait: how long a lookup waits for a symbolizer another caller uses before it gives up (its report is
    ///     then named later); nil waits until it is free, as a batch job does. A service gives its deadline.
    /// - Throws: `StoreError` when the store's debug files cannot be read.
    package init(
        store: ReportStore, folder: URL? = nil, executable: String? = SymbolizerLocator.locate(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount, time: TimeSource = .system,
        deadline: Duration = LLVMSymbolizer.batchDeadline, busyWait: Duration? = nil
    ) throws(StoreError) {
        self.store = store
        self.time = time
        self.busyWait = busyWait
        self.folder = folder ?? Self.defaultFolder(environment: ProcessEnvironment.current())
        let deadline = LLVMSymbolizer.deadline(environment: ProcessEnvironment.current(), otherwise: deadline)
        processes =
            executable.map { path in (0..<max(1, workers)).map { _ in LLVMSymbolizer(executable: path, deadline: deadline) } } ?? []
        try refresh()
    }

    /// `$CRASHTRAIL_SYMBOL_CACHE`, else `crashtrail/debug-files` in the user's cache folder (`$XDG_CACHE_HOME`, else
    /// `~/.cache`), else, for a user without a home, a folder named after the user in the system's temporary folder.
    package static func defaultFolder(environment: [String: String]) -> URL {
        if let given = environment["CRASHTRAIL_SYMBOL_CACHE"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("crashtrail/debug-files")
        }
        if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/crashtrail/debug-files")
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-debug-files-\(geteuid())")
    }

    /// Makes the cache folder if it is missing (readable by this user only), and refuses one another user owns or
    /// others may write to: a file planted there would be read as a debug file.
    /// - Throws: ``SymbolizerError`` (`unsafeCache`) naming the folder and what to do.
    package static func preparePrivateFolder(_ folder: URL) throws(SymbolizerError) {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder.path) {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SymbolizerError(.unsafeCache, "the debug-file cache \(folder.path) cannot be made: \(error.localizedDescription)")
            }
        }
        var info = stat()
        guard lstat(folder.path, &info) == 0 else {
            throw SymbolizerError(.unsafeCache, "the debug-file cache \(folder.path) cannot be read")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SymbolizerError(
                .unsafeCache,
                "the debug-file cache \(folder.path) is not a folder (a link or a file); remove it or set CRASHTRAIL_SYMBOL_CACHE")
        }
        guard info.st_uid == geteuid() else {
            throw SymbolizerError(
                .unsafeCache,
                "the debug-file cache \(folder.path) belongs to user \(info.st_uid), not to this user (\(geteuid())); set CRASHTRAIL_SYMBOL_CACHE to a folder of this user's"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            throw SymbolizerError(
                .unsafeCache,
                "the debug-file cache \(folder.path) can be written by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 700 \(folder.path), or set CRASHTRAIL_SYMBOL_CACHE"
            )
        }
    }

    /// Reads again which debug files the store keeps (after `symbols add`, or an upload over HTTP).
    /// - Throws: `StoreError`.
    package func refresh() throws(StoreError) {
        let files = try store.debugFiles()
        let fresh = Dictionary(files.map { (FileKey(project: $0.project, uuid: $0.uuid), $0) }, uniquingKeysWith: { first, _ in first })
        state.withLock { state in
            // What a missing debug file answered, or one since replaced (a symbol table by its dSYM), is asked again.
            let kept = Set(fresh.filter { key, file in state.files[key]?.sha1 == file.sha1 }.keys)
            state.files = fresh
            state.answers = state.answers.filter { entry in kept.contains(entry.key.file) }
            state.paths = state.paths.filter { entry in kept.contains(entry.key) }
            state.refreshed = time.uptimeNanoseconds()
        }
    }

    /// Whether lookups can be made: an `llvm-symbolizer` was found.
    package var canSymbolicate: Bool { !processes.isEmpty }

    /// The stored debug file with `uuid` that symbolicates `project`'s crashes, if any: the project's own, else one
    /// kept for every project (SPEC section 19); DWARF before a symbol table, as the store chooses.
    ///
    /// The store's list is read again when it is older than a minute and does not name `uuid`: another machine
    /// sharing the store may have stored it since.
    package func debugFile(uuid: String, project: ProjectID) -> DebugFile? {
        func resolved(_ files: [FileKey: DebugFile]) -> DebugFile? {
            DebugFile.chosen(
                own: files[FileKey(project: .one(project), uuid: uuid)], every: files[FileKey(project: .unassigned, uuid: uuid)])
        }
        let (file, stale) = state.withLock { state in
            let file = resolved(state.files)
            let stale = file == nil && time.seconds(since: state.refreshed) > Self.refreshInterval
            // One worker reads the list again; the others go on with the one they have.
            if stale { state.refreshed = time.uptimeNanoseconds() }
            return (file, stale)
        }
        guard stale else { return file }
        try? refresh()
        return state.withLock { resolved($0.files) }
    }

    /// How old the list of stored debug files may be before a UUID it does not name makes it read again.
    private static let refreshInterval: Double = 60

    /// Why the last lookup failed, if one did: a debug file that could not be used, or a symbolizer that failed.
    package var lastFailure: SymbolizerError? { state.withLock { $0.lastFailure } }

    /// The frames at each lookup, innermost first; nil where the debug file names nothing, or cannot be used.
    package func frames(at lookups: [Lookup]) -> [[SymbolicatedFrame]?] {
        lookUp(lookups).frames
    }

    /// The frames at each lookup, and the UUIDs every lookup of which was answered (from the cache or the symbolizer).
    ///
    /// An image whose lookups got no answer (the symbolizer timed out or died, its debug file could not be written out)
    /// is left out of `answered`, so its report is kept as waiting for its debug file and symbolicated later.
    package func lookUp(_ lookups: [Lookup]) -> (frames: [[SymbolicatedFrame]?], answered: Set<String>) {
        guard !processes.isEmpty, !lookups.isEmpty else { return (lookups.map { _ in nil }, []) }
        var answers: [[SymbolicatedFrame]?] = Array(repeating: nil, count: lookups.count)
        var missing: [Int] = []
        var backingOff: Set<String> = []
        let now = time.uptimeNanoseconds()
        let process = state.withLock { state -> LLVMSymbolizer in
            for (index, lookup) in lookups.enumerated() {
                if let known = state.answers[lookup] {
                    answers[index] = known
                } else if let failed = state.failedAt[lookup.file], Double(now &- failed) / 1e9 < Self.backoff, now >= failed {
                    // A debug file that made the symbolizer fail waits out its backoff: each report of it would
                    // otherwise hold its request for a whole deadline again.
                    backingOff.insert(lookup.uuid)
                } else {
                    missing.append(index)
                }
            }
            state.next = (state.next + 1) % processes.count
            return processes[state.next]
        }
        let all = Set(lookups.map(\.uuid)).subtracting(backingOff)
        guard !missing.isEmpty else { return (answers, all) }
        var queries: [(path: String, address: UInt64)] = []
        var asked: [Int] = []
        for index in missing {
            guard let path = path(of: lookups[index].file) else { continue }
            queries.append((path, lookups[index].address))
            asked.append(index)
        }
        let found: [LLVMSymbolizer.Answer]
        do {
            found = try process.symbolicate(queries, waitingAtMost: busyWait)
        } catch {
            let failed = Set(asked.map { lookups[$0].file })
            state.withLock { state in
                state.lastFailure = error
                // A busy process says nothing of the debug files; one that timed out or died does, and only of the
                // files asked: another project's debug file of the same UUID is not held back.
                if error.code != .busy {
                    for file in failed { state.failedAt[file] = time.uptimeNanoseconds() }
                }
            }
            return (answers, all.subtracting(missing.map { lookups[$0].uuid }))
        }
        // A lookup whose debug file the symbolizer could not read got no answer: its file waits out the backoff, and its
        // image is symbolicated later, as after a symbolizer that died.
        var unanswered = Set(missing).subtracting(asked)
        state.withLock { state in
            if state.answers.count > Self.maximumAnswers { state.answers.removeAll(keepingCapacity: true) }
            for (index, answer) in zip(asked, found) {
                switch answer {
                case .frames(let frames):
                    answers[index] = frames
                    state.answers[lookups[index]] = frames
                case .unreadableFile(let message):
                    unanswered.insert(index)
                    state.failedAt[lookups[index].file] = time.uptimeNanoseconds()
                    // Written out again at the next try: the copy in the cache may be what went missing.
                    state.paths[lookups[index].file] = nil
                    state.lastFailure = SymbolizerError(
                        .unreadableDebugFile, "llvm-symbolizer could not read the debug file of \(lookups[index].uuid): \(message)")
                }
            }
        }
        // A UUID is answered when every one of its lookups was.
        return (answers, all.subtracting(unanswered.map { lookups[$0].uuid }))
    }

    /// Where the debug file `key` is on this machine, written from the store's chunks the first time.
    private func path(of key: FileKey) -> String? {
        let (file, known) = state.withLock { ($0.files[key], $0.paths[key]) }
        if let known { return known }
        guard let file else { return nil }
        do {
            let path = try write(file)
            state.withLock { $0.paths[key] = path }
            return path
        } catch {
            let failure = SymbolizerError(
                .debugFileUnwritable, "the debug file \(key.uuid) (\(file.name)) could not be written to \(folder.path): \(error)",
                cause: error)
            state.withLock { $0.lastFailure = failure }
            return nil
        }
    }

    /// Writes the debug file to the cache folder, unless a file with its SHA-1 is there already.
    private func write(_ file: DebugFile) throws -> String {
        try Self.preparePrivateFolder(folder)
        // Named by content too: a slice replaced in the store (its symbol table by its dSYM) is written anew.
        let target = folder.appendingPathComponent("\(file.uuid)-\(file.sha1)")
        let manager = FileManager.default
        if let attributes = try? manager.attributesOfItem(atPath: target.path), (attributes[.size] as? Int64) == file.size,
            Self.sha1(ofFile: target) == file.sha1
        {
            return target.path
        }
        let process = ProcessInfo.processInfo.processIdentifier
        let partial = folder.appendingPathComponent("\(file.uuid).partial-\(process)-\(UUID().uuidString)")
        guard manager.createFile(atPath: partial.path, contents: nil) else {
            throw SymbolizerError(.cannotStart, "\(partial.path) cannot be created")
        }
        defer { try? manager.removeItem(at: partial) }
        let handle = try FileHandle(forWritingTo: partial)
        var hash = Insecure.SHA1()
        do {
            try store.forEachDebugFileChunk(uuid: file.uuid, project: file.project) { chunk in
                hash.update(data: chunk)
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        let sha1 = Hex.lowercase(hash.finalize())
        guard sha1 == file.sha1 else {
            throw SymbolizerError(.unreadableAnswer, "its stored chunks have SHA-1 \(sha1), not \(file.sha1): the store may be damaged")
        }
        // The name appears whole or not at all, and never goes missing: rename(2) replaces a file another worker wrote
        // (the same bytes) in one step, while a symbolizer may be opening it. Removing it first left a moment with no
        // file, and a lookup then answered nothing.
        guard Foundation.rename(partial.path, target.path) == 0 else {
            throw SymbolizerError(.debugFileUnwritable, "\(target.lastPathComponent) could not be put in place (errno \(errno))")
        }
        return target.path
    }

    /// The SHA-1 of a file's bytes, in lower-case hex; nil when it cannot be read.
    static func sha1(ofFile url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var hash = Insecure.SHA1()
        while true {
            guard let chunk = try? handle.read(upToCount: 1 << 20) else { return nil }
            if chunk.isEmpty { break }
            hash.update(data: chunk)
        }
        return Hex.lowercase(hash.finalize())
    }
}
