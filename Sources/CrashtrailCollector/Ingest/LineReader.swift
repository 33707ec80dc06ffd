import Foundation

/// Reads lines from a file handle in chunks, so standard input of any length streams in flat memory.
struct LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private var number = 0

    init(handle: FileHandle) {
        self.handle = handle
    }

    /// The next line (without its newline) and its 1-based number, or nil at the end.
    mutating func nextLine() -> (Int, [UInt8])? {
        while true {
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
