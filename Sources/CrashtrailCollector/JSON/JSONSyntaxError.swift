/// Why a payload's bytes are not JSON text (RFC 8259), with where the problem was found and what was expected.
struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in a phrase: "expected ',' or '}' after an object member, found 'x'".
    var message: String
    /// Byte offset of the problem in the decoded bytes.
    var offset: Int
    /// 1-based line of the problem.
    var line: Int
    /// Whether the text ended where more was expected: the mark of a truncated payload.
    var endsEarly: Bool

    /// The problem at `offset` of `bytes`, its line counted from the start.
    init(_ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, endsEarly: Bool = false) {
        self.message = message
        self.offset = offset
        self.endsEarly = endsEarly
        var line = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
        self.line = line
    }

    var description: String { "line \(line), byte \(offset): \(message)" }

    /// A byte as a reader would name it: `'x'` when printable ASCII, else `byte 0xNN`.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
