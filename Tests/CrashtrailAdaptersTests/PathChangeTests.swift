import CrashtrailAdapters
import Testing

@Suite("Typed path changes")
struct PathChangeTests {
    @Test(
        "Each change is named by what went from the top and what came",
        arguments: [
            (["a", "b", "c"], ["a", "b"], PathChange<String>.Kind.pop),
            (["a", "b"], ["a", "b", "c", "d"], .push),
            (["a", "b"], [], .popToRoot),
            (["a", "b"], ["a", "x"], .replace),
            (["a"], ["a"], .none),
        ])
    func kinds(old: [String], new: [String], kind: PathChange<String>.Kind) {
        // Given two paths
        // When their change is computed
        let change = PathChange(from: old, to: new)
        // Then its kind is the expected one
        #expect(change.kind == kind)
    }

    @Test("A replacement keeps the common prefix")
    func replacement() {
        // Given [a, b] becoming [a, d, e]
        // When the change is computed
        let change = PathChange(from: ["a", "b"], to: ["a", "d", "e"])
        // Then one entry is kept, one popped and two pushed
        #expect(change.kept == 1)
        #expect(change.popped == 1)
        #expect(change.pushed == ["d", "e"])
    }
}
