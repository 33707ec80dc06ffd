import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Testing

@Suite("Screen paths and the paths table (SPEC section 13)")
struct PathTableTests {
    @Test(
        "Shares are whole percentages rounded half up",
        arguments: [(1, 8, 13), (1, 3, 33), (2, 3, 67), (1, 200, 1), (1, 201, 0), (3, 3, 100), (0, 5, 0), (0, 0, 0), (5, 8, 63)])
    func shares(part: Int, whole: Int, expected: Int) {
        #expect(PathTable.percentage(part, of: whole) == expected)
    }

    @Test("Rows come by count, then by sequence element by element; a prefix comes first; the last K screens are kept")
    func ordering() {
        let paths = [
            ["home", "item", "profile"], ["home", "b", "item"], ["x", "home", "item"], ["item"], ["a", "item"],
            ["home", "item", "profile"],
        ]
        let table = PathTable(paths: paths, last: 2)
        #expect(table.rows.map(\.screens) == [["item", "profile"], ["a", "item"], ["b", "item"], ["home", "item"], ["item"]])
        #expect(table.rows.map(\.count) == [2, 1, 1, 1, 1])
        #expect(table.rows.map(\.share) == [33, 17, 17, 17, 17])
        #expect(table.reportsWithTrail == 6)
        // Reports that could not be replayed still count in the shares.
        #expect(PathTable(paths: paths, last: 2, reportsWithTrail: 12).rows.first?.share == 17)
        #expect(CanonicalJSON.string(of: table.jsonValue).hasPrefix(#"[{"count":2,"screens":["item","profile"],"share":33}"#))
    }

    @Test("Many rows come in the order of counts, then of names compared element by element", arguments: 0..<20)
    func orderingOfManyRows(seed: UInt64) {
        // Given paths of names that are prefixes of each other, upper and lower case, non-ASCII, and (one seed in
        // four) a name holding a NUL byte
        var random = SplitMix64(seed: seed)
        var names = ["a", "ab", "abc", "b", "B", "ba", "é", "e", "日本", "z", "item", "itemDetail", ""]
        if seed.isMultiple(of: 4) { names.append("a\u{0}b") }
        let paths = (0..<400).map { _ in
            (0..<Int.random(in: 1...4, using: &random)).map { _ in names[Int.random(in: 0..<names.count, using: &random)] }
        }
        // When they are counted
        let rows = PathTable(paths: paths, last: 3).rows
        // Then each row comes before the next: more reports, or as many and the sequence first by code point, a
        // prefix before a longer sequence
        func precedes(_ lhs: [String], _ rhs: [String]) -> Bool {
            for (left, right) in zip(lhs, rhs) where left != right {
                return Array(left.unicodeScalars.map(\.value)).lexicographicallyPrecedes(right.unicodeScalars.map(\.value))
            }
            return lhs.count < rhs.count
        }
        for (row, next) in zip(rows, rows.dropFirst()) {
            #expect(row.count > next.count || (row.count == next.count && precedes(row.screens, next.screens)), "\(row) before \(next)")
        }
        #expect(rows.reduce(0) { $0 + $1.count } == paths.count)
        // The empty sequence comes before one empty name, in either order of arrival
        #expect(PathTable(paths: [[""], []]).rows.map(\.screens) == [[], [""]])
        #expect(PathTable(paths: [[], [""]]).rows.map(\.screens) == [[], [""]])
    }

    @Test("A screen path starts at the base's top, follows the top after each step and collapses repeats")
    func screenPath() throws {
        let manifest = try Manifest(yaml: SpecManifests.piratebay)
        let trail = Trail(
            app: .init(bundleID: manifest.app, version: "1", build: "1"), session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1),
            steps: [
                Step(t: 0, .select(tab: 1)), Step(t: 1_000, .push(Destination("item", ["id": "L-1"]))), Step(t: 2_000, .pop),
                Step(t: 3_000, .pop), Step(t: 4_000, .present(Destination("compose", ["id": "P-1"]))), Step(t: 5_000, .satisfy("x")),
            ])
        // home (launch), marketplace, item, marketplace (pop), marketplace again (pop at root, collapsed), login (flow), login
        #expect(ScreenPath.names(of: trail, manifest: manifest) == ["home", "marketplace", "item", "marketplace", "login"])
        #expect(ScreenPath.lastScreens(["a", "b", "c"], count: 2) == ["b", "c"])
    }
}
