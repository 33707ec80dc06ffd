import CrashtrailFormats
import Foundation

/// Copies refused inputs into the quarantine folder, each with a `.reason.txt` beside it.
package struct Quarantine: Sendable {
    package let directory: URL

    /// A quarantine in `directory`, made when the first input is refused.
    package init(directory: URL) {
        self.directory = directory
    }

    /// A file name derived from the input's path that cannot leave the folder and that no other input shares:
    /// the first 12 hex digits of the SHA-256 of the path, then the path with everything but letters, digits,
    /// `.`, `-` and `_` replaced by `_` (its last 120 characters).
    ///
    /// It never ends in `.reason.txt`, the suffix of reason files, and the same input always gets the same name, so a
    /// re-run overwrites rather than piles up.
    static func quarantineName(_ source: String) -> String {
        let digest = Array(source.utf8).withUnsafeBufferPointer { PayloadDigest.sha256($0) }.prefix(12)
        var name = sanitizedName(source)
        if name.count > 120 { name = String(name.suffix(120)) }
        if name.hasSuffix(".reason.txt") { name = String(name.dropLast(4)) + "_txt" }
        return "\(digest)-\(name)"
    }

    /// The path with everything but ASCII letters, digits, `.` and `-` replaced by `_`, without leading dots or
    /// underscores.
    static func sanitizedName(_ source: String) -> String {
        var name = String(
            source.unicodeScalars.map { scalar -> Character in
                let allowed = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-")
                return allowed ? Character(scalar) : "_"
            })
        while name.hasPrefix(".") || name.hasPrefix("_") { name.removeFirst() }
        return name.isEmpty ? "input" : name
    }

    /// Writes a copy of `bytes` and the reason beside it, atomically, so a killed run never leaves half a copy.
    /// - Throws: Foundation's error when the folder cannot be written.
    package func keep(_ bytes: UnsafeBufferPointer<UInt8>, source: String, reason: RejectionError) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = Self.quarantineName(source)
        try write(Data(buffer: bytes), as: name)
        try writeReason(name: name, source: source, reason: reason)
    }

    /// The prefix of a file being written, followed by the writing process's ID; a run killed mid-write leaves
    /// one, and a later run removes it once that process is gone.
    static let temporaryPrefix = ".crashtrail-partial-"

    /// Writes `data` under a temporary name of this process, then renames it into place, so a copy is whole or
    /// absent, and jobs quarantining the same input at once never take each other's temporaries.
    private func write(_ data: Data, as name: String) throws {
        let temporary = directory.appendingPathComponent("\(Self.temporaryPrefix)\(getpid())-\(name)")
        try data.write(to: temporary)
        guard rename(temporary.path, directory.appendingPathComponent(name).path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "renaming \(temporary.lastPathComponent) failed (errno \(code))"])
        }
    }

    /// Removes what killed runs left: temporaries of processes that are no longer running.
    func removeLeftovers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let pidText = name.dropFirst(Self.temporaryPrefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(pidText), pid != getpid() else { continue }
            // kill with signal 0 only asks whether the process exists.
            if kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
    }

    /// Writes only the reason, for an input too large to copy: it names the input's path instead.
    /// - Throws: Foundation's error when the folder cannot be written.
    package func keepReasonOnly(source: String, reason: RejectionError) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try writeReason(name: Self.quarantineName(source), source: source, reason: reason)
    }

    private func writeReason(name: String, source: String, reason: RejectionError) throws {
        let text = "input: \(source)\nreason: \(reason.code)\n\(reason.message)\n"
        try write(Data(text.utf8), as: name + ".reason.txt")
    }
}
