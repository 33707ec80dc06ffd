/// Reads the binary form's primitives, refusing anything that runs past the end or does not fit.
///
/// What is being read is described lazily (`@autoclosure`): the description only matters in an error, and building
/// "the time of step 4711" for every step was a tenth of decoding.
///
/// Every count the reader returns is bounded by the bytes that remain, so a hostile count can never make a
/// decoder allocate more than its input justifies.
struct ByteReader {
    /// Why a read failed.
    enum ReadError: Error, Equatable {
        /// The data ended in the middle of a value.
        case truncated(String)
        /// The encoded input itself ended in the middle of a value: format version 2's raw column, the last bytes
        /// of a binary trail, was cut short.
        case inputEnds(String)
        /// A value that the encoder never writes.
        case invalid(String)
        /// More steps than the decoder's limit allows: the count found and the limit.
        case tooManySteps(Int, limit: Int)
    }

    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    /// The bytes not read yet.
    var remainingBytes: ArraySlice<UInt8> { bytes[min(offset, bytes.count)...] }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte(_ what: @autoclosure () -> String) throws(ReadError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated("the data ends before \(what())") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int, _ what: @autoclosure () -> String) throws(ReadError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw .truncated("\(what()) needs \(count) bytes but only \(remaining) remain")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// An unsigned LEB128 varint of at most ten bytes, refusing overlong forms so each value has one encoding.
    mutating func varint(_ what: @autoclosure () -> String) throws(ReadError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte(what())
            let payload = UInt64(next & 0x7F)
            if shift == 63, payload > 1 { throw .invalid("\(what()) does not fit in 64 bits") }
            value |= payload << shift
            if next & 0x80 == 0 {
                if next == 0, shift > 0 { throw .invalid("\(what()) has an overlong varint") }
                return value
            }
            shift += 7
            if shift > 63 { throw .invalid("\(what()) has a varint longer than ten bytes") }
        }
    }

    /// A varint that must be a count of at most `limit`.
    mutating func count(_ what: @autoclosure () -> String, atMost limit: Int) throws(ReadError) -> Int {
        let value = try varint(what())
        guard value <= UInt64(max(limit, 0)) else {
            throw .invalid("\(what()) is \(value), more than the \(limit) the remaining data can hold")
        }
        return Int(value)
    }

    /// A varint index below `count`.
    mutating func index(_ what: @autoclosure () -> String, below count: Int) throws(ReadError) -> Int {
        let value = try varint(what())
        guard value < UInt64(count) else { throw .invalid("\(what()) is \(value) but only \(count) are known") }
        return Int(value)
    }

    /// A zigzag-mapped signed integer.
    mutating func signed(_ what: @autoclosure () -> String) throws(ReadError) -> Int64 {
        let raw = try varint(what())
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A length-prefixed UTF-8 string, refusing bytes that are not UTF-8.
    mutating func string(_ what: @autoclosure () -> String) throws(ReadError) -> String {
        let length = try count("the length of \(what())", atMost: remaining)
        return try Self.utf8(try bytes(length, what()), what())
    }

    static func utf8(_ slice: ArraySlice<UInt8>, _ what: @autoclosure () -> String) throws(ReadError) -> String {
        guard let string = String(utf8Validating: slice) else { throw .invalid("\(what()) is not valid UTF-8") }
        return string
    }

    mutating func uint32(_ what: @autoclosure () -> String) throws(ReadError) -> UInt32 {
        var value: UInt32 = 0
        for byte in try bytes(4, what()) { value = value << 8 | UInt32(byte) }
        return value
    }
}
