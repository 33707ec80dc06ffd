import CrashtrailCore

/// The bytes of a validated JSON document and where its arrays and objects end.
///
/// Plain pointers, so that the decoder's containers carry it and read values without any reference counting. Only valid while the
/// `SkimmingDecoder` call that made it runs.
struct JSONDocument {
    let base: UnsafePointer<UInt8>
    let count: Int
    let spans: UnsafePointer<JSONStructure.Span>

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    func kind(of position: JSONPosition) -> JSONKind {
        guard position.offset >= 0 else { return .null }
        switch base[position.offset] {
        case .openBrace: return .object
        case .openBracket: return .array
        case .quote: return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// The first offset at or after `offset` that is not whitespace (in a validated document, bytes up to 0x20
    /// outside strings are whitespace).
    @inline(__always)
    func skipWhitespace(from offset: Int) -> Int {
        var offset = offset
        while offset < count, base[offset] <= .space { offset += 1 }
        return offset
    }

    /// The offset just past the value at `position`.
    @inline(__always)
    func end(of position: JSONPosition) -> Int {
        let offset = position.offset
        switch base[offset] {
        case .openBrace, .openBracket: return spans[position.span].end
        case .quote: return JSONBytes.scanString(base, from: offset + 1, count: count).end + 1
        case UInt8(ascii: "t"), UInt8(ascii: "n"): return offset + 4
        case UInt8(ascii: "f"): return offset + 5
        default: return numberEnd(from: offset)
        }
    }

    @inline(__always)
    func numberEnd(from offset: Int) -> Int {
        var end = offset + 1
        while end < count {
            let byte = base[end]
            guard
                JSONBytes.isDigit(byte) || byte == .period || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                    || byte == .plus || byte == .minus
            else { break }
            end += 1
        }
        return end
    }
}
