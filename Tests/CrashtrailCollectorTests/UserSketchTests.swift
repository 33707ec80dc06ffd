import CrashtrailReports
import Testing

/// The HyperLogLog sketch of distinct users: its estimates, merging, and its bytes.
@Suite("User sketch")
struct UserSketchTests {
    /// A sketch of the IDs `device-<i>` for each i in `range`.
    static func sketch(_ range: Range<Int>) -> UserSketch {
        var sketch = UserSketch()
        for i in range {
            sketch.insert("device-\(i)")
        }
        return sketch
    }

    @Test func emptySketchCountsNobody() {
        let sketch = UserSketch()
        #expect(sketch.isEmpty)
        #expect(sketch.estimate == 0)
        #expect(sketch.serialized == [1])
    }

    @Test func smallCountsAreExact() {
        #expect(Self.sketch(0..<1).estimate == 1)
        #expect(!Self.sketch(0..<1).isEmpty)
        #expect(Self.sketch(0..<10).estimate == 10)
        // Linear counting is exact while few IDs share a register; at 100 it is 99 with this hash.
        let hundred = Self.sketch(0..<100).estimate
        #expect(abs(hundred - 100) <= 1, "estimate \(hundred)")
    }

    @Test(arguments: [10_000, 200_000])
    func largeCountsAreWithinThreeStandardErrors(count: Int) {
        let estimate = Self.sketch(0..<count).estimate
        let relativeError = Double(estimate - count) / Double(count)
        #expect(abs(relativeError) <= 3 * UserSketch.standardError, "estimate \(estimate) of \(count)")
    }

    @Test func standardErrorIsThatOfPrecision12() {
        #expect(abs(UserSketch.standardError - 1.04 / 64) < 1e-12)
    }

    /// The hash is FNV-1a 64 and fmix64 of the UTF-8 bytes, not `Hasher`: the same bytes in every process.
    @Test func hashIsStableAcrossProcesses() {
        var one = UserSketch()
        one.insert("device-0")
        // Register 2410 (0x096a, little-endian), rank 1.
        #expect(one.serialized == [1, 0x6a, 0x09, 1])
        #expect(Self.sketch(0..<3).serialized == [1, 38, 0, 1, 106, 9, 1, 52, 14, 5])
    }

    @Test func insertingAnIDAgainChangesNothing() {
        var sketch = Self.sketch(0..<500)
        let before = sketch
        sketch.insert("device-7")
        sketch.insert("device-499")
        #expect(sketch == before)
        #expect(sketch.serialized == before.serialized)

        var single = UserSketch()
        single.insert("someone")
        single.insert("someone")
        #expect(single.estimate == 1)
    }

    @Test func mergingOverlappingSetsGivesTheSketchOfTheUnion() {
        var merged = Self.sketch(0..<6000)
        merged.formUnion(Self.sketch(4000..<10_000))
        let union = Self.sketch(0..<10_000)
        #expect(merged == union)
        #expect(merged.serialized == union.serialized)

        #expect(Self.sketch(0..<50).union(Self.sketch(20..<80)) == Self.sketch(0..<80))
        #expect(Self.sketch(0..<80).union(UserSketch()) == Self.sketch(0..<80))
        #expect(Self.sketch(0..<80).union(Self.sketch(0..<80)) == Self.sketch(0..<80))
    }

    @Test(arguments: [0, 10, 1000, 100_000])
    func serializationRoundTrips(count: Int) throws {
        let sketch = Self.sketch(0..<count)
        let bytes = sketch.serialized
        let decoded = try UserSketch(serialized: bytes)
        #expect(decoded == sketch)
        #expect(decoded.serialized == bytes)
        #expect(decoded.estimate == sketch.estimate)
    }

    @Test func fewUsersSerializeSparseAndManyDense() {
        let ten = Self.sketch(0..<10).serialized
        #expect(ten.first == 1)
        #expect(ten.count == 1 + 3 * 10)
        let thousand = Self.sketch(0..<1000).serialized
        #expect(thousand.first == 1)
        #expect(thousand.count < 1 + 4096)
        let many = Self.sketch(0..<100_000).serialized
        #expect(many.first == 2)
        #expect(many.count == 1 + 4096)
    }

    @Test func sparsePairsInAnyOrderDecode() throws {
        let decoded = try UserSketch(serialized: [1, 52, 14, 5, 106, 9, 1, 38, 0, 1])
        #expect(decoded == Self.sketch(0..<3))
    }

    @Test func decodingRefusesTruncatedAndGarbageBytes() {
        let sparse = Self.sketch(0..<10).serialized
        let dense = Self.sketch(0..<100_000).serialized
        #expect(throws: UserSketch.DecodingError.wrongLength(form: nil, count: 0)) { try UserSketch(serialized: []) }
        #expect(throws: UserSketch.DecodingError.wrongLength(form: 1, count: 30)) {
            try UserSketch(serialized: Array(sparse.dropLast()))
        }
        #expect(throws: UserSketch.DecodingError.wrongLength(form: 2, count: 4096)) {
            try UserSketch(serialized: Array(dense.dropLast()))
        }
        #expect(throws: UserSketch.DecodingError.wrongLength(form: 2, count: 1)) { try UserSketch(serialized: [2]) }
        #expect(throws: UserSketch.DecodingError.unknownForm(0)) { try UserSketch(serialized: [0]) }
        #expect(throws: UserSketch.DecodingError.unknownForm(UInt8(ascii: "h"))) {
            try UserSketch(serialized: Array("hello, world".utf8))
        }
        #expect(throws: UserSketch.DecodingError.indexOutOfRange(4096)) { try UserSketch(serialized: [1, 0x00, 0x10, 1]) }
        #expect(throws: UserSketch.DecodingError.indexOutOfRange(0xffff)) { try UserSketch(serialized: [1, 0xff, 0xff, 1]) }
        #expect(throws: UserSketch.DecodingError.rankTooBig(index: 5, rank: 54)) { try UserSketch(serialized: [1, 5, 0, 54]) }
        var badDense = dense
        badDense[1 + 17] = 200
        #expect(throws: UserSketch.DecodingError.rankTooBig(index: 17, rank: 200)) { try UserSketch(serialized: badDense) }
        // The largest rank a 64-bit hash gives, 53, is accepted.
        #expect(throws: Never.self) { try UserSketch(serialized: [1, 5, 0, 53]) }
    }

    @Test func decodingErrorsSayWhatWasWrong() {
        #expect(UserSketch.DecodingError.wrongLength(form: 2, count: 4096).description.contains("4097"))
        #expect(UserSketch.DecodingError.unknownForm(9).description.contains("form 9"))
        #expect(UserSketch.DecodingError.indexOutOfRange(4096).description.contains("out of range"))
        #expect(UserSketch.DecodingError.rankTooBig(index: 5, rank: 54).description.contains("rank 54"))
    }
}
