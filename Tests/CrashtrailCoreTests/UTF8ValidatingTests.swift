import CrashtrailCore
import CrashtrailTestSupport
import Testing

/// `String(utf8Validating:)`, which the app side uses where Swift 6's `String(validating:as:)` is missing (iOS 17 and
/// earlier), says what the standard library's own validation says, on every input.
@Suite("UTF-8 validation without Swift 6's standard library")
struct UTF8ValidatingTests {
    /// Byte sequences at the edges of UTF-8: each well-formed form, and each way of breaking one.
    static let edges: [[UInt8]] = [
        [], [0x41], [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xEF, 0xBF, 0xBD], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        // ill-formed: a lone continuation, overlong forms, surrogates, past U+10FFFF, cut short, bytes never used
        [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x82],
        [0xF0, 0x9F, 0x98], [0xFE], [0xFF], [0x41, 0xC3, 0x41], [0xEF, 0xBF, 0xBD, 0xFF],
    ]

    @Test("Every edge case, alone and inside ASCII, is accepted or refused as the standard library does")
    func edgeCases() {
        for bytes in Self.edges {
            for padded in [bytes, Array("long ascii text before".utf8) + bytes + Array(" and after it".utf8)] {
                let expected = String(validating: padded, as: UTF8.self)
                #expect(String(utf8Validating: padded) == expected, "bytes \(padded)")
                #expect(padded.withUnsafeBufferPointer { String(utf8Validating: $0) } == expected, "bytes \(padded)")
            }
        }
    }

    @Test("20,000 seeded byte strings of mixed ASCII, well-formed and broken UTF-8 agree with the standard library")
    func seeded() {
        var random = SplitMix64(seed: 0x5EED_0008)
        let pieces = Self.edges + [Array("ñé中文😀".utf8), Array("plain".utf8)]
        var refused = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                } else {
                    bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
                }
            }
            let expected = String(validating: bytes, as: UTF8.self)
            if expected == nil { refused += 1 }
            #expect(String(utf8Validating: bytes[...]) == expected, "bytes \(bytes)")
        }
        // Both kinds were drawn often enough for the comparison to mean something.
        #expect(refused > 2_000 && refused < 18_000)
    }

    @Test("A typed error passes through a closure that rethrows untyped")
    func typedResult() {
        struct Refusal: Error, Equatable { let line: Int }
        func parse(_ bytes: [UInt8]) throws(Refusal) -> Int {
            let result = bytes.withUnsafeBufferPointer { buffer in
                Result(catchingTyped: { () throws(Refusal) -> Int in
                    guard let first = buffer.first, first != 0 else { throw Refusal(line: 3) }
                    return Int(first)
                })
            }
            return try result.typedValue()
        }
        #expect(throws: Refusal(line: 3)) { try parse([0]) }
        #expect((try? parse([7])) == 7)
    }
}
