import Foundation
import ZIPFoundation

/// Finds the Mach-O files among what a user gives `crashtrail symbols add`: files, folders (searched, dSYM bundles
/// included), and `.zip` archives as Xcode and App Store Connect give them (extracted, with bounds, into a folder of
/// its own).
package struct DebugFileFinder {
    /// A Mach-O file found, and the name to report it by.
    package struct Candidate: Hashable, Sendable {
        /// Where it is on disk (inside the scratch folder, for an archive's).
        package var path: String
        /// The name a user recognizes: the path given, or `ARCHIVE.zip:ENTRY`.
        package var name: String

        package init(path: String, name: String) {
            self.path = path
            self.name = name
        }
    }

    /// A path that gave no file to read, and why.
    package struct Refusal: Hashable, Sendable {
        package var name: String
        package var reason: String
    }

    /// The most bytes one archive entry may inflate to (Sentry's limit for a debug file).
    package var maximumEntrySize: UInt64 = 2 << 30
    /// The most an entry may inflate to for each compressed byte: a zip bomb inflates far more than a dSYM does.
    package var maximumRatio: UInt64 = 200
    /// The most entries an archive may have.
    package var maximumEntries = 100_000
    /// Where archives are extracted.
    package var scratch: URL

    package init(scratch: URL) {
        self.scratch = scratch
    }

    /// The Mach-O files under `paths`, in the order given (a folder's files sorted by path), and the paths that gave
    /// none.
    package func candidates(in paths: [String]) -> (found: [Candidate], refused: [Refusal]) {
        var found: [Candidate] = []
        var refused: [Refusal] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                refused.append(Refusal(name: path, reason: "no such file or folder"))
                continue
            }
            if isDirectory.boolValue {
                let files = Self.files(under: path)
                let before = found.count
                for file in files {
                    if file.hasSuffix(".zip") {
                        let (inside, why) = extract(file, name: file)
                        found += inside
                        if let why { refused.append(Refusal(name: file, reason: why)) }
                    } else if Self.startsLikeMachO(file) {
                        found.append(Candidate(path: file, name: file))
                    }
                }
                if found.count == before {
                    refused.append(Refusal(name: path, reason: "the folder holds no Mach-O file (no dSYM, no binary)"))
                }
            } else if Self.isZip(path) {
                let (inside, why) = extract(path, name: path)
                found += inside
                if let why {
                    refused.append(Refusal(name: path, reason: why))
                } else if inside.isEmpty {
                    refused.append(Refusal(name: path, reason: "the archive holds no Mach-O file (no dSYM, no binary)"))
                }
            } else {
                // A file named on its own is read whatever its first bytes: the reader says why it is none.
                found.append(Candidate(path: path, name: path))
            }
        }
        return (found, refused)
    }

    /// The regular files under `folder`, sorted, links not followed.
    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = (folder as NSString).appendingPathComponent(relative)
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if type == .typeRegular { files.append(path) }
        }
        return files.sorted()
    }

    /// Whether the file at `path` starts like a Mach-O or universal file.
    static func startsLikeMachO(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return MachOReader.looksLikeMachO(Array((try? handle.read(upToCount: 4)) ?? Data()))
    }

    /// Whether the file at `path` is a zip archive (`PK\u{3}\u{4}`).
    static func isZip(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map(Array.init) == [0x50, 0x4B, 0x03, 0x04]
    }

    /// Extracts the entries of the archive at `path` that are Mach-O files into the scratch folder.
    /// - Returns: the files extracted, and why the archive was refused when it was (the files extracted before stay).
    func extract(_ path: String, name: String) -> (found: [Candidate], refusal: String?) {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            return ([], "not a zip archive that can be read (\(error))")
        }
        let folder = scratch.appendingPathComponent(UUID().uuidString)
        var found: [Candidate] = []
        var entries = 0
        for entry in archive where entry.type == .file {
            entries += 1
            guard entries <= maximumEntries else { return (found, "it has more than \(maximumEntries) entries") }
            let size = entry.uncompressedSize
            guard size <= maximumEntrySize else {
                return (found, "its entry \(entry.path) inflates to \(size) bytes, over the limit of \(maximumEntrySize)")
            }
            guard size <= entry.compressedSize * maximumRatio + (1 << 20) else {
                return (found, "its entry \(entry.path) would inflate \(size / max(1, entry.compressedSize)) times: refused as a zip bomb")
            }
            guard size >= 4 else { continue }
            let target = folder.appendingPathComponent(String(entries))
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
                    return (found, "its entries cannot be written to \(folder.path)")
                }
                let handle = try FileHandle(forWritingTo: target)
                defer { try? handle.close() }
                var written: UInt64 = 0
                var first = true
                _ = try archive.extract(entry, skipCRC32: false) { data in
                    if first {
                        first = false
                        // Only Mach-O entries are kept: a dSYM bundle's plists and the like are skipped.
                        guard MachOReader.looksLikeMachO(Array(data.prefix(4))) else { throw SkippedEntry() }
                    }
                    written += UInt64(data.count)
                    // The header's size is a promise the entry must keep: more is a lying header.
                    guard written <= size else { throw EntryTooLarge() }
                    try handle.write(contentsOf: data)
                }
                found.append(Candidate(path: target.path, name: "\(name):\(entry.path)"))
            } catch is SkippedEntry {
                try? FileManager.default.removeItem(at: target)
            } catch is EntryTooLarge {
                try? FileManager.default.removeItem(at: target)
                return (found, "its entry \(entry.path) inflates past the size its header gives: refused as damaged")
            } catch {
                try? FileManager.default.removeItem(at: target)
                return (found, "its entry \(entry.path) could not be extracted (\(error))")
            }
        }
        return (found, nil)
    }

    private struct SkippedEntry: Error {}
    private struct EntryTooLarge: Error {}
}
