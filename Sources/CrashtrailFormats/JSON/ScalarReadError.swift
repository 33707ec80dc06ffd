import CrashtrailCore

/// Why a string, number or boolean could not be read, before it is turned into a `DecodingError` with its
/// path and message (only then: a failure is a few integers, so trying a type costs nothing when it fails).
enum ScalarReadError: Error {
    /// The value is of another kind.
    case kind(JSONKind)
    /// The string at this offset is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// The string at this offset holds a lone surrogate escape (this code unit).
    case loneSurrogate(offset: Int, codeUnit: UInt32)
    /// The number at `offset..<end` does not fit the type asked for.
    case unrepresentable(offset: Int, end: Int)
}

/// A string or number that is valid JSON but that the Swift type asked for cannot hold (invalid UTF-8, a lone
/// surrogate escape, an integer out of range or with a fraction, a number beyond `Double`).
struct JSONValueError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String
    var offset: Int
    var description: String { message }
}
