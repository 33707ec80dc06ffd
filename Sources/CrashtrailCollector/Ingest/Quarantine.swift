import Foundation

/// Copies refused inputs into the quarantine folder, each with a `.reason.txt` beside it.
struct Quarantine {
    let directory: URL

    /// A file name derived from the input's path that cannot leave the folder: only letters, digits, `.`, `-`
    /// and `_`, no leading dot, at most 180 characters.
    static func sanitizedName(_ source: String) -> String {
        var name = String(
            source.unicodeScalars.map { scalar -> Character in
                let allowed = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-")
                return allowed ? Character(scalar) : "_"
            })
        while name.hasPrefix(".") || name.hasPrefix("_") { name.removeFirst() }
        if name.count > 180 { name = String(name.suffix(180)) }
        return name.isEmpty ? "input" : name
    }

    /// Writes `bytes` and the reason.
    /// - Throws: Foundation's error when the folder cannot be written.
    func keep(_ bytes: UnsafeBufferPointer<UInt8>, source: String, reason: RejectionError) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = Self.sanitizedName(source)
        try Data(buffer: bytes).write(to: directory.appendingPathComponent(name))
        let text = "input: \(source)\nreason: \(reason.code)\n\(reason.message)\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent(name + ".reason.txt"))
    }
}
