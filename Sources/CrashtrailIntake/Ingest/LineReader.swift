import CrashtrailSymbols
import Foundation

/// Reads lines from a file handle in chunks, so standard input of any length streams in flat memory.
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private var number = 0
    private let maximumLength: Int
    /// Skipping the rest of a line that went over the limit.
    private var skipping = false

    init(handle: FileHandle, maximumLength: Int = .max) {
        self.handle = handle
        self.maximumLength = maximumLength
    }

    /// The next line (without its newline) and its 1-based number, or nil at the end.
    ///
    /// A line longer than the limit comes back as `nil` bytes, and is never held in memory whole.
    mutating func nextLine() -> (Int, [UInt8]?)? {
        while true {
            if skipping {
                if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    start = newline + 1
                    skipping = false
                    continue
                }
                buffer.removeAll(keepingCapacity: true)
                start = 0
                if finished { return nil }
                let chunk = handle.readData(ofLength: 1 << 20)
                if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
                continue
            }
            if buffer.count - start > maximumLength, buffer[start...].prefix(maximumLength + 1).firstIndex(of: UInt8(ascii: "\n")) == nil {
                number += 1
                skipping = true
                return (number, nil)
            }
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                number += 1
                return (number, line)
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                number += 1
                return (number, line)
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}

extension LineReader {
    /// Calls `body` with each line of `bytes` (without its newline) and its 1-based number.
    static func forEachLine(in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        var start = 0
        var number = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            number += 1
            body(UnsafeBufferPointer(rebasing: bytes[start..<end]), number)
            start = end + 1
        }
    }
}
