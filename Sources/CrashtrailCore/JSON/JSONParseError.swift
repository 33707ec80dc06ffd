/// Why a JSON text was refused, with the byte offset and line where the problem was found: the one syntax error of
/// crashtrail's JSON readers, the strict ``JSONParser`` and the collector's skimming decoder.
public struct JSONParseError: CrashtrailError, Hashable {
    /// What kind of problem it was.
    public struct Code: ErrorCode {
        public let name: String
        public init(name: String) { self.name = name }

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

    /// Whether the text ended where more was expected: the mark of a truncated document.
    public var endsEarly: Bool { code == .truncated }

    /// Where: `line 1, byte 8`, so the description reads `line 1, byte 8: expected a value after ',', found '}'`.
    public var location: String? { "line \(line), byte \(offset)" }

    /// The problem at `offset` of `bytes`, its line counted from the start.
    package init(_ code: Code, _ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.code = code
        self.message = message
        self.offset = min(offset, bytes.count)
        var line = 1
        for index in 0..<self.offset where bytes[index] == .newline { line += 1 }
        self.line = line
    }
}
