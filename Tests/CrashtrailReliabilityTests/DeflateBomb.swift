/// A deflate bomb: a raw deflate stream (RFC 1951) of one fixed-Huffman block that inflates to `inflatedSize`
/// zero bytes from about 1/160 of that, written bit by bit so the tests need no zlib of their own.
enum DeflateBomb {
    /// The raw deflate stream.
    /// - Parameter inflatedSize: how many zero bytes it inflates to (at least 1).
    /// - Returns: the compressed bytes.
    static func stream(inflatedSize: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL: the last block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        bits.writeCode(0b0011_0000, count: 8)  // literal 0x00 (codes 0-143 are 0x30 + literal, 8 bits)
        var remaining = inflatedSize - 1
        while remaining >= 258 {
            bits.writeCode(0b1100_0101, count: 8)  // length 258: symbol 285 (codes 280-287 are 0xC0 + n, 8 bits)
            bits.writeCode(0, count: 5)  // distance 1: distance code 0, 5 bits, no extra bits
            remaining -= 258
        }
        for _ in 0..<remaining {
            bits.writeCode(0b0011_0000, count: 8)
        }
        bits.writeCode(0, count: 7)  // end of block: symbol 256, 7 zero bits
        return bits.finished
    }

    /// A binary trail (docs/ENCODING.md header: magic C7 54, version 1, flags 0, varint body length, CRC-32)
    /// whose header declares `declaredLength` bytes while its body inflates to `inflatedSize`.
    static func binaryTrail(declaredLength: Int, inflatedSize: Int) -> [UInt8] {
        var header: [UInt8] = [0xC7, 0x54, 0x01, 0x00]
        var length = UInt64(declaredLength)
        repeat {
            var byte = UInt8(length & 0x7F)
            length >>= 7
            if length != 0 { byte |= 0x80 }
            header.append(byte)
        } while length != 0
        header += [0xDE, 0xAD, 0xBE, 0xEF]
        return header + stream(inflatedSize: inflatedSize)
    }

    /// Deflate's bit order: values LSB first, Huffman codes MSB first.
    private struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var current: UInt8 = 0
        private var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push(UInt8((value >> UInt32(index)) & 1)) }
        }

        mutating func writeCode(_ code: UInt32, count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { push(UInt8((code >> UInt32(index)) & 1)) }
        }

        private mutating func push(_ bit: UInt8) {
            current |= bit << UInt8(used)
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }

        var finished: [UInt8] { used > 0 ? bytes + [current] : bytes }
    }
}
