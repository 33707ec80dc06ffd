import CrashtrailCore
import CrashtrailIntake
import CrashtrailReports
import CrashtrailStore
import Testing

/// A running `serve` follows `crashtrail grouping set` and `group merge` without a restart.
@Suite("Grouping rules kept current")
struct LiveGroupingRulesTests {
    @Test("Rules and merges set in the store are read again once older than the interval; never before")
    func readAgain() throws {
        let store = try TestFiles.memoryStore()
        let now = try LiveGroupingRules(store: store, refreshInterval: 0)
        let never = try LiveGroupingRules(store: store, refreshInterval: .infinity)
        #expect(now.current.isEmpty && never.current.isEmpty)

        try store.setGroupingRules("type:* -> everything", project: .all, at: "2026-11-28T00:00:00Z")
        try store.addGroupMerge(["everything"], into: "one", project: .all, at: "2026-11-28T00:00:00Z")

        let book = now.current
        #expect(book.rules(for: .first).fingerprintRules.count == 1)
        #expect(book.merged("everything", project: .first) == "one")
        #expect(GroupingSource.live(now).current.merges.count == 1)
        #expect(never.current.isEmpty, "read at the start only")
    }
}
