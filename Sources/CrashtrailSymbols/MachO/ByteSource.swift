import Foundation

/// Bytes read at any offset: a file, read piece by piece so a 200 MB debug file never sits in memory whole, or bytes
/// already in memory.
package protocol ByteSource {
    /// The number of bytes.
    var size: UInt64 { get }
    /// The `count` bytes at `offset`, or fewer at the end.
    /// - Throws: what reading the file throws.
    func read(at offset: UInt64, count: Int) throws -> [UInt8]
}

/// A file as a ``ByteSource``.
package final class FileByteSource: ByteSource {
    package let size: UInt64
    private let handle: FileHandle

    /// Opens `path` for reading.
    /// - Throws: Foundation's error when it cannot be opened.
    package init(path: String) throws {
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        size = try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        try handle.seek(toOffset: offset)
        return Array(try handle.read(upToCount: Int(min(UInt64(count), size - offset))) ?? Data())
    }
}

/// Bytes in memory as a ``ByteSource``.
package struct MemoryByteSource: ByteSource {
    package let bytes: [UInt8]
    package var size: UInt64 { UInt64(bytes.count) }

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}
