#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one input file with plain POSIX calls: one `open`, one `fstat` for the kind and size checks, then
/// `read` into a buffer of that size.
///
/// Mapping every input instead (as `Data(contentsOf:options: .alwaysMapped)` does) costs a page fault per 4 KB and
/// a cross-core TLB flush at each unmap, which was several percent of ingest on two cores; FileManager's
/// attribute dictionary for the size check cost more than the read.
enum InputFile {
    /// What reading a file gave.
    enum Outcome {
        case bytes([UInt8])
        /// Over the size limit, with the size found: the file was not read.
        case tooLarge(Int)
        /// Could not be read: the reason, for a person.
        case unreadable(String)
    }

    /// Reads the file at `path` unless it is over `maximumSize` bytes.
    ///
    /// Only regular files are read: a FIFO, socket or device is refused without blocking (`O_NONBLOCK`), since
    /// reading one could wait or never end. A file that grows past the limit while being read counts as too large.
    static func read(_ path: String, maximumSize: Int) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .unreadable(reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable(reason(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .unreadable("it is a folder that could not be listed")
        default: return .unreadable("it is not a regular file (a FIFO, socket or device); crashtrail reads only regular files")
        }
        let size = Int(status.st_size)
        guard size <= maximumSize else { return .tooLarge(size) }

        // One byte of room beyond the size seen tells a file read whole from one that grew meanwhile; a grown
        // file is read again from the start with more room.
        var capacity = size + 1
        while true {
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                guard let base = buffer.baseAddress else { return }
                while count < buffer.count {
                    let result = systemRead(descriptor, base + count, buffer.count - count)
                    if result > 0 {
                        count += result
                    } else if result == 0 {
                        break
                    } else if errno != EINTR {
                        failure = errno
                        break
                    }
                }
            }
            if failure != 0 { return .unreadable(reason(failure)) }
            if bytes.count < capacity { return .bytes(bytes) }
            guard capacity <= maximumSize else { return .tooLarge(bytes.count) }
            capacity = min(maximumSize + 1, capacity * 2)
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { return .unreadable(reason(errno)) }
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// POSIX `read`, named apart from `InputFile.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.read(descriptor, buffer, count)
    #else
    Glibc.read(descriptor, buffer, count)
    #endif
}
