/// Appends the binary form's primitives: bytes, LEB128 varints, zigzag integers, length-prefixed strings.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// An unsigned LEB128 varint: seven bits a byte, low bits first, high bit set on all but the last byte.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func varint(_ value: Int) {
        varint(UInt64(max(value, 0)))
    }

    /// A signed integer, zigzag-mapped (0, -1, 1, -2…) then written as a varint.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A string as its UTF-8 byte count then its bytes.
    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        varint(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }
}
