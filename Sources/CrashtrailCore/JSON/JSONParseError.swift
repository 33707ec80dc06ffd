/// Why a JSON text was refused, with the byte offset and line where the problem was found.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it was.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        public static let syntax = Code(name: "syntax")
        public static let fractionalNumber = Code(name: "fractional-number")
        public static let integerOutOfRange = Code(name: "integer-out-of-range")
        public static let duplicateKey = Code(name: "duplicate-key")
        public static let invalidUnicode = Code(name: "invalid-unicode")
        public static let tooDeep = Code(name: "too-deep")
        public static let truncated = Code(name: "truncated")
    }

    public var code: Code
    /// What was wrong, in a sentence.
    public var message: String
    /// Byte offset of the problem in the input.
    public var offset: Int
    /// 1-based line of the problem.
    public var line: Int

    public var description: String { "line \(line): \(message)" }
}
