import Foundation

/// Walks files and folders lazily, in a stable order (each folder's entries sorted by name, depth first), so
/// memory stays flat however many files there are and two runs see the same order.
///
/// Each folder is listed once, however many symbolic links lead to it, so a link back into the tree cannot make the
/// walk endless.
struct InputWalker: Sequence, IteratorProtocol {
    private var pending: [String]
    private var excluded: Set<String>
    private var excludedNames: Set<String>
    /// Folders already listed, by device and inode, so links back into the tree are not followed again.
    private var visitedFolders: Set<FolderID> = []
    private let fileManager = FileManager()

    private struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// - Parameters:
    ///   - paths: Files and folders, in the order given.
    ///   - excluding: Folders and files to skip (the trails and quarantine folders, the store's files), as
    ///     standardized paths.
    init(paths: [String], excluding: Set<String> = []) {
        pending = paths.reversed()
        excluded = excluding
        excludedNames = Set(excluding.map { URL(fileURLWithPath: $0).lastPathComponent })
    }

    /// Whether `path` is one of the excluded ones; only paths with an excluded name (or ending in `.` or `..`,
    /// whose name only standardizing tells) are standardized.
    private func isExcluded(_ path: String) -> Bool {
        guard !excludedNames.isEmpty else { return false }
        let name = Self.lastComponent(of: path)
        guard name == "." || name == ".." || excludedNames.contains(String(name)) else { return false }
        return excluded.contains(URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// The last component of `path` as `URL.lastPathComponent` gives it for paths that do not end in `.` or `..`
    /// (trailing slashes ignored, `/` for the root), without building a URL for every file of the walk.
    static func lastComponent(of path: String) -> Substring {
        let slash = UInt8(ascii: "/")
        var end = path.utf8.endIndex
        while end > path.utf8.startIndex, path.utf8[path.utf8.index(before: end)] == slash { end = path.utf8.index(before: end) }
        guard end > path.utf8.startIndex else { return path.isEmpty ? "" : "/" }
        let trimmed = path[..<end]
        guard let last = trimmed.utf8.lastIndex(of: slash) else { return trimmed }
        return trimmed[trimmed.utf8.index(after: last)...]
    }

    /// The next regular file's path; unreadable folders are yielded as paths so the reader reports them.
    mutating func next() -> String? {
        while let path = pending.popLast() {
            // One stat (following links, as the reader does) says whether the path exists, is a folder, and which.
            var status = stat()
            guard stat(path, &status) == 0 else { return path }
            if isExcluded(path) { continue }
            guard status.st_mode & S_IFMT == S_IFDIR else { return path }
            let id = FolderID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            guard visitedFolders.insert(id).inserted else { continue }
            guard let names = try? fileManager.contentsOfDirectory(atPath: path) else { return path }
            let base = path.hasSuffix("/") ? path : path + "/"
            for name in names.sorted(by: >) where !name.hasPrefix(".") {
                pending.append(base + name)
            }
        }
        return nil
    }

    /// How many files the walk will yield, counted with a walk of its own.
    static func count(paths: [String], excluding: Set<String>) -> Int {
        var count = 0
        var walker = InputWalker(paths: paths, excluding: excluding)
        while walker.next() != nil { count += 1 }
        return count
    }
}
