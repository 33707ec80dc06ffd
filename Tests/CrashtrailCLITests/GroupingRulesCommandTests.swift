import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail grouping set|show|check` and `crashtrail group merge` over the samples: the rules and merges move
/// exactly the reports they name, and every stored report follows them through `reprocess` (docs/GROUPING.md).
@Suite("crashtrail grouping and group merge")
struct GroupingRulesCommandTests {
    static let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
    static let reports = PackageRoot.url.appendingPathComponent("Samples/reports").path

    /// Each group's signature and its report count.
    static func groups(_ runner: CommandRunner, in folder: TemporaryFolder) throws -> [String: Int] {
        let listed = try runner.run(["list", "--store", "s.sqlite", "--format", "json"], directory: folder.url)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: array.map { ($0["signature"] as? String ?? "", $0["count"] as? Int ?? 0) })
    }

    static func groupID(_ runner: CommandRunner, in folder: TemporaryFolder, signature prefix: String) throws -> String {
        let listed = try runner.run(["list", "--store", "s.sqlite", "--format", "json"], directory: folder.url)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return try #require(array.first { ($0["signature"] as? String)?.hasPrefix(prefix) == true }?["id"] as? String)
    }

    @Test("A rule moves exactly the reports it matches, a merge keeps through reprocess, and removing the rules restores the rest")
    func rulesAndMerges() throws {
        // Given the samples ingested
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try runner.run(["ingest", Self.reports, "--manifest", Self.manifest, "--store", "s.sqlite", "--quiet"], directory: folder.url)
        let before = try Self.groups(runner, in: folder)
        #expect(before.count == 5 && before.values.reduce(0, +) == 11, "\(before)")
        #expect(before.keys.allSatisfy { !$0.contains("<redacted>") })

        // When a fingerprint rule names the SIGBUS and SIGSEGV crashes one group, and a stack-trace rule drops a frame
        try """
        # memory errors are one bug here
        error.type:EXC_BAD_ACCESS -> memory, {{ type }}
        function:CheckoutView.body.getter -group
        """.write(to: folder.url.appendingPathComponent("rules.txt"), atomically: true, encoding: .utf8)
        let set = try runner.run(["grouping", "set", "rules.txt", "--store", "s.sqlite"], directory: folder.url)
        let after = try Self.groups(runner, in: folder)

        // Then exactly the five memory crashes and the two checkout crashes moved
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("11 reports derived again, 7 reports regrouped"), "\(set.stdout)")
        #expect(after["memory | EXC_BAD_ACCESS"] == 5)
        #expect(after["NSInvalidArgumentException @ OrderStore.record(_:) < CheckoutViewModel.placeOrder()"] == 2)
        let untouched = before.filter { !$0.key.hasPrefix("EXC_BAD_ACCESS") && !$0.key.hasPrefix("NSInvalid") }
        #expect(untouched.allSatisfy { after[$0.key] == $0.value }, "\(after)")
        let shown = try runner.run(["grouping", "show", "--store", "s.sqlite"], directory: folder.url)
        #expect(shown.stdout.hasPrefix("# memory errors are one bug here\n"))

        // When two groups are merged, then everything is reprocessed
        let abort = try Self.groupID(runner, in: folder, signature: "EXC_CRASH/SIGABRT")
        let trap = try Self.groupID(runner, in: folder, signature: "EXC_BREAKPOINT/SIGTRAP")
        let merged = try runner.run(["group", "merge", String(abort.prefix(6)), trap, "--store", "s.sqlite"], directory: folder.url)
        let reprocessed = try runner.run(["reprocess", "--store", "s.sqlite"], directory: folder.url)
        let afterMerge = try Self.groups(runner, in: folder)

        // Then the first group holds both, also after reprocess, which changes nothing
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("Merged 1 group (\(trap)) into \(abort); 2 reports moved."), "\(merged.stdout)")
        #expect(reprocessed.stdout.contains("Reprocessed 11 reports: 0 changed."), "\(reprocessed.stdout)")
        #expect(afterMerge.count == 3 && afterMerge.values.reduce(0, +) == 11, "\(afterMerge)")
        #expect(afterMerge.first { $0.key.hasPrefix("EXC_CRASH/SIGABRT") }?.value == 4)
        let showMerges = try runner.run(["grouping", "show", "--store", "s.sqlite"], directory: folder.url)
        #expect(showMerges.stdout.contains("# merged: \(trap) into \(abort)"))
        // The merged group's page says what was merged into it
        #expect(try runner.run(["report", "--html", "site", "--store", "s.sqlite", "--quiet"], directory: folder.url).status == 0)
        let page = try String(
            contentsOf: folder.url.appendingPathComponent("site/groups").appendingPathComponent(
                try #require(
                    FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/groups").path).first {
                        $0.hasPrefix(abort)
                    })), encoding: .utf8)
        #expect(page.contains("Merged into it by hand") && page.contains("EXC_BREAKPOINT/SIGTRAP @ ProfileViewController.viewDidLoad()"))

        // When the rules are removed
        try "".write(to: folder.url.appendingPathComponent("none.txt"), atomically: true, encoding: .utf8)
        let removed = try runner.run(["grouping", "set", "none.txt", "--store", "s.sqlite"], directory: folder.url)

        // Then the default signatures come back, the merge stays
        #expect(removed.stdout.contains("Removed the grouping rules of the store"), "\(removed.stdout)")
        let restored = try Self.groups(runner, in: folder)
        #expect(restored.count == 4)
        #expect(
            before.filter { !$0.key.hasPrefix("EXC_BREAKPOINT") && !$0.key.hasPrefix("EXC_CRASH") }.allSatisfy {
                restored[$0.key] == $0.value
            })
    }

    @Test("check and set name a mistake's file, line and column, exit 1 and keep nothing; merge needs two groups")
    func mistakes() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try runner.run(["ingest", Self.reports, "--manifest", Self.manifest, "--store", "s.sqlite", "--quiet"], directory: folder.url)
        try "type:a -> ok\nfunction:x +apps\n".write(to: folder.url.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)

        let checked = try runner.run(["grouping", "check", "bad.txt"], directory: folder.url)
        let set = try runner.run(["grouping", "set", "bad.txt", "--store", "s.sqlite"], directory: folder.url)
        let shown = try runner.run(["grouping", "show", "--store", "s.sqlite"], directory: folder.url)
        let missing = try runner.run(["grouping", "check", "nowhere.txt"], directory: folder.url)
        let one = try runner.run(["group", "merge", "abc", "--store", "s.sqlite"], directory: folder.url)
        let unknown = try runner.run(["group", "merge", "ffffffffffff", "eeeeeeeeeeee", "--store", "s.sqlite"], directory: folder.url)
        let project = try runner.run(["grouping", "show", "--project", "ios", "--store", "s.sqlite"], directory: folder.url)

        #expect(checked.status == 1)
        #expect(checked.stderr.hasPrefix("Error: bad.txt:2:16: expected a space or the end of the line after `+app`"), "\(checked.stderr)")
        #expect(set.status == 1 && set.stderr == checked.stderr)
        #expect(shown.stdout.hasPrefix("# No grouping rules are kept"))
        #expect(missing.status != 0 && missing.stderr.contains("nowhere.txt"))
        #expect(one.status != 0 && one.stderr.contains("two or more groups"))
        #expect(unknown.status == 1 && unknown.stderr.contains("no crash group has an ID starting with \"ffffffffffff\""))
        #expect(project.status == 1 && project.stderr.contains("no project has the ID or name ios"))
    }
}
