import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Testing

/// `PathCounter` keeps names and sequences in hash tables of its own; its tables must be what counting the paths
/// plainly gives, however many names and sequences it holds.
@Suite("Counting paths")
struct PathCounterTests {
    @Test("the counter's table is the table counted plainly, for names and paths of every kind", arguments: 0..<12)
    func equalsPlainCount(seed: UInt64) {
        // Given thousands of paths over hundreds of names: prefixes of each other, cases, non-ASCII, an empty name,
        // a NUL; some inferred, some shared by several reports (more names and sequences than the tables first hold)
        var random = SplitMix64(seed: seed)
        var names = ["a", "ab", "abc", "b", "B", "ba", "é", "e\u{301}", "日本", "", "a\u{0}b", "itemDetail"]
        names += (0..<300).map { "screen\($0)" }
        let pool = seed.isMultiple(of: 2) ? names : Array(names.prefix(12))
        let paths = (0..<6_000).map { _ in
            (
                screens: (0..<Int.random(in: 0...7, using: &random)).map { _ in pool[Int.random(in: 0..<pool.count, using: &random)] },
                inferred: Int.random(in: 0..<4, using: &random) == 0, count: Int.random(in: 1...3, using: &random)
            )
        }
        for last in [-1, 0, 1, 3, 5] {
            // When they are counted from strings and from bytes
            var fromStrings = PathCounter(last: last)
            var fromBytes = PathCounter(last: last)
            for path in paths {
                fromStrings.add(path.screens, inferred: path.inferred, count: path.count)
                let buffers = path.screens.map { Array($0.utf8) }
                withBuffers(buffers) { fromBytes.add(utf8Names: $0, inferred: path.inferred, count: path.count) }
            }
            // Then both are the plain count: the last screens by their bytes, with their reports and inferred ones
            let expected = plainTable(paths, last: last, reportsWithTrail: 20_000)
            #expect(fromStrings.table(reportsWithTrail: 20_000) == expected, "last \(last)")
            #expect(fromBytes.table(reportsWithTrail: 20_000) == expected, "last \(last)")
        }
    }

    @Test("without reports left out, the shares are over the reports counted; with fewer given, too")
    func reportsWithTrail() {
        var counter = PathCounter(last: 2)
        counter.add(["a", "b", "c"], count: 3)
        counter.add(["x", "b", "c"], inferred: true)
        #expect(counter.table().reportsWithTrail == 4)
        #expect(counter.table(reportsWithTrail: 1).reportsWithTrail == 4)
        #expect(counter.table().rows == [PathTable.Row(screens: ["b", "c"], count: 4, share: 100, inferred: 1)])
        #expect(counter.table().inferred == 1)
    }

    /// The table counted with a dictionary keyed by each sequence's bytes, sorted by count and then name by name in
    /// byte order.
    private func plainTable(_ paths: [(screens: [String], inferred: Bool, count: Int)], last: Int, reportsWithTrail: Int) -> PathTable {
        var counts: [[[UInt8]]: (all: Int, inferred: Int, screens: [String])] = [:]
        for path in paths {
            let screens = Array(path.screens.suffix(max(0, last)))
            let key = screens.map { Array($0.utf8) }
            counts[key, default: (0, 0, screens)].all += path.count
            if path.inferred { counts[key, default: (0, 0, screens)].inferred += path.count }
        }
        let sorted = counts.sorted { lhs, rhs in
            if lhs.value.all != rhs.value.all { return lhs.value.all > rhs.value.all }
            return lhs.key.lexicographicallyPrecedes(rhs.key) { $0.lexicographicallyPrecedes($1) }
        }
        var expected = PathCounter(last: last)
        // A counter given each row once, with its count, in the sorted order, must give the same rows in it.
        for (_, value) in sorted {
            expected.add(value.screens, inferred: false, count: value.all - value.inferred)
            if value.inferred > 0 { expected.add(value.screens, inferred: true, count: value.inferred) }
        }
        let table = expected.table(reportsWithTrail: reportsWithTrail)
        #expect(table.rows.map(\.screens) == sorted.map(\.value.screens))
        #expect(table.rows.map(\.count) == sorted.map(\.value.all))
        #expect(table.rows.map(\.inferred) == sorted.map(\.value.inferred))
        #expect(table.rows.map(\.share) == sorted.map { PathTable.percentage($0.value.all, of: reportsWithTrail) })
        return table
    }

    private func withBuffers(_ names: [[UInt8]], _ body: ([UnsafeBufferPointer<UInt8>]) -> Void) {
        func nest(_ index: Int, _ buffers: [UnsafeBufferPointer<UInt8>]) {
            guard index < names.count else { return body(buffers) }
            names[index].withUnsafeBufferPointer { nest(index + 1, buffers + [$0]) }
        }
        nest(0, [])
    }
}
