import CrashtrailCore

/// Decodes narrow `Decodable` views of large JSON documents, reading only what the types ask for.
///
/// Foundation's `JSONDecoder` turns the whole document into a map of every value before the first
/// `init(from:)` runs. This decoder makes one validating pass over the bytes instead (`JSONValidator`), which
/// records only where each array and object ends; then the types' own `init(from:)` walk the bytes in place:
/// an object's keys are indexed when it is opened, a value is read when it is asked for, and anything else is
/// stepped over (an array or object in one move, thanks to the recorded ends). Values no type names are never
/// made into strings or numbers.
///
/// It behaves as `JSONDecoder` with its default options does, which the differential tests check payload by
/// payload: the same errors for a missing key (`keyNotFound`), a wrong type (`typeMismatch`) and null
/// (`valueNotFound`), with the same coding paths; a failed element decode leaves an unkeyed container where it
/// was; the first of repeated keys wins; integers are read from `1.0` or `1e2` when they are whole and fit; a
/// `Double` that overflows or underflows is refused; text that is not valid UTF-8 and lone surrogate escapes
/// are refused in the strings and keys that are read, as `dataCorrupted` with an empty coding path.
///
/// Deliberate differences, all stricter, all syntax (Foundation lets these through where its types do not look):
/// - every number must follow the RFC 8259 grammar (`01`, `1.`, `-`, `1e` and `1-2` are refused);
/// - every string must be free of raw control characters (below 0x20) and invalid escapes (`\x`, `\u12`);
/// - a trailing comma before `]` or `}` is refused;
/// - only UTF-8 is read (Foundation also reads UTF-16 and UTF-32 text it detects).
///
/// Like Foundation, invalid UTF-8 and lone surrogate escapes are accepted in strings nobody reads (JavaScript
/// SDKs cut strings between surrogates): they are values, not syntax.
///
/// No decoding strategies: `Date`, `Data` and `URL` decode through their own `Decodable` conformances
/// (Foundation's `.deferredToDate`, `.deferredToData`), which no crashtrail payload type uses.
struct SkimmingDecoder {
    /// What the decoded types' `init(from:)` read as `Decoder.userInfo` (``ParseContext/userInfo``).
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Decodes a `T` from `bytes`, one JSON text with optional whitespace around it.
    /// - Throws: `DecodingError.dataCorrupted` with an empty coding path when the bytes are not JSON (its
    ///   underlying error a `JSONParseError` naming the offset, line and what was expected) or when a value read
    ///   cannot be held by its Swift type (a `JSONValueError`); `keyNotFound`, `typeMismatch` and
    ///   `valueNotFound` with the coding path when the JSON does not have the shape `T` needs; and whatever `T`'s
    ///   own `init(from:)` throws.
    func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        let structure: JSONStructure
        do {
            structure = try JSONValidator.validate(bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
        return try decode(T.self, from: bytes, structure: structure)
    }

    /// Decodes a `T` from `bytes` that `JSONValidator.validate` already turned into `structure`.
    /// - Throws: As ``decode(_:from:)`` does once the text is valid.
    func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, structure: JSONStructure) throws -> T {
        // A valid document is never empty.
        guard let base = bytes.baseAddress else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no bytes")) }
        let decoder = SkimmingDecoderImpl(
            base: base, count: bytes.count, structure: structure, current: JSONPosition(offset: structure.root, span: 0),
            userInfo: userInfo)
        // The containers do not retain the decoder: it must live until the decoding ends.
        return try withExtendedLifetime(decoder) { try T(from: decoder) }
    }
}
