import CrashtrailCore
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail paths` against a table computed independently from SPEC section 13: each stored trail replayed on
/// ``SpecEngine``, its tops collected, counted, sorted and rounded here in plain code.
@Suite("crashtrail paths")
struct PathsCommandTests {
    static let manifestPath = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path

    /// The expected `paths --format json` output for the reports of `signature` (every report when nil).
    static func expectedTable(store: ReportStore, manifest: Manifest, signature: String?, last: Int) throws -> JSONValue {
        var counts: [[String]: Int] = [:]
        var withTrail = 0
        for record in try store.allRecords() where signature == nil || record.signature == signature {
            guard let trail = try record.decodedTrail() else { continue }
            withTrail += 1
            var engine = SpecEngine(manifest: manifest, state: trail.base)
            var names: [String] = []
            for state in [engine.state]
                + trail.steps.map({ step -> NavigationState in
                    engine.apply(step)
                    return engine.state
                })
            {
                let top = (state.modals.last ?? state.stacks[state.tab ?? 0]).last?.name ?? ""
                if names.last != top { names.append(top) }
            }
            counts[Array(names.suffix(last)), default: 0] += 1
        }
        let rows = counts.sorted { lhs, rhs in
            if lhs.value != rhs.value { return lhs.value > rhs.value }
            for (left, right) in zip(lhs.key, rhs.key) where left != right {
                return Array(left.unicodeScalars.map(\.value)).lexicographicallyPrecedes(right.unicodeScalars.map(\.value))
            }
            return lhs.key.count < rhs.key.count
        }
        return .array(
            rows.map { screens, count in
                // Half up: 100 * count / withTrail, plus one half, truncated.
                let share = Int((Double(100 * count) / Double(withTrail) + 0.5).rounded(.down))
                return .object(["screens": .array(screens.map(JSONValue.string)), "count": .int(Int64(count)), "share": .int(Int64(share))])
            })
    }

    @Test(
        "On the samples and on a generated store, every group's table and the whole store's match SPEC section 13", arguments: [nil, 400])
    func matchesTheSpec(generated: Int?) throws {
        // Given a store: the samples, or a generated corpus of every format
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var inputs = [
            PackageRoot.url.appendingPathComponent("Samples/reports").path, "--trails",
            PackageRoot.url.appendingPathComponent("Samples/trails").path,
        ]
        if let generated {
            let generator = try #require(CommandRunner.locate(named: "crashtrail-corpus"), "the crashtrail-corpus executable was not built")
            let made = try generator.run(
                ["corpus", "corpus", "--count", String(generated), "--seed", "13", "--manifest", Self.manifestPath], directory: folder.url)
            try #require(made.status == 0, "\(made.stderr)")
            inputs = ["corpus/reports", "--trails", "corpus/trails"]
        }
        let ingest = try runner.run(["ingest"] + inputs + ["--manifest", Self.manifestPath, "--quiet"], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let store = try ReportStore.open(path: folder.url.appendingPathComponent("crashtrail.sqlite").path)
        let manifest = try Manifest(contentsOfFile: Self.manifestPath)
        // When paths is asked for every report and for each group, with several K
        var checked = 0
        for group in [nil] + (try store.groups()) {
            for last in [1, 3, 5] {
                let result = try runner.run(
                    ["paths"] + (group.map { [String($0.id.prefix(8))] } ?? []) + [
                        "--last", String(last), "--format", "json", "--manifest", Self.manifestPath,
                    ],
                    directory: folder.url)
                // Then it prints exactly the independently computed table
                #expect(result.status == 0, "\(result.stderr)")
                let expected = try Self.expectedTable(store: store, manifest: manifest, signature: group?.signature, last: last)
                #expect(try JSONParser.parse(result.stdoutBytes) == expected, "group \(group?.id ?? "all"), last \(last)")
                #expect(result.stdout == CanonicalJSON.string(of: expected) + "\n")
                checked += 1
            }
        }
        #expect(checked >= 9)
    }

    @Test("paths reads the screen path stored with each report when the manifest is the one that made it, and replays otherwise")
    func storedPaths() throws {
        // Given the samples ingested with their manifest, embedded and joined trails alike
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = PackageRoot.url.appendingPathComponent("Samples")
        let ingest = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "--trails", samples.appendingPathComponent("trails").path,
                "--manifest", Self.manifestPath, "--quiet",
            ],
            directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let storeURL = folder.url.appendingPathComponent("crashtrail.sqlite")
        let store = try ReportStore.open(path: storeURL.path)
        let manifest = try Manifest(contentsOfFile: Self.manifestPath)
        let records = try store.allRecords()
        let withTrail = records.filter { $0.trailSource.hasTrail }
        try #require(withTrail.contains { $0.trailSource == .joined } && withTrail.contains { $0.trailSource == .embedded })
        // Then each report with a trail keeps its last screens, as its trail replays with the manifest
        for record in withTrail {
            let stored = try #require(record.storedScreenPath, "\(record.id) has a stored screen path")
            let trail = try #require(try record.decodedTrail())
            #expect(stored == StoredScreenPath(trail: trail, manifest: manifest), "\(record.id)")
            #expect(stored.manifest == manifest.fingerprint)
        }
        #expect(records.filter { !$0.trailSource.hasTrail }.allSatisfy { $0.storedScreenPath == nil })

        // When every stored path is made to say another screen
        try store.write { db in
            try db.execute("UPDATE report SET screenPath = '[\"stored\"]' WHERE screenPath IS NOT NULL")
            try db.execute("UPDATE joinedTrail SET screenPath = '[\"stored\"]' WHERE screenPath IS NOT NULL")
        }
        // Then paths with the same manifest counts what is stored, not a replay
        let read = try runner.run(["paths", "--last", "3", "--format", "json", "--manifest", Self.manifestPath], directory: folder.url)
        #expect(read.status == 0, "\(read.stderr)")
        let rows = try #require(try JSONParser.parse(read.stdoutBytes).arrayValue)
        #expect(rows.map { $0["screens"] } == [.array([.string("stored")])])
        #expect(rows.first?["count"] == .int(Int64(withTrail.count)))
        // And with a manifest whose fingerprint differs (a destination no trail visits added), or more screens than are
        // stored, it replays
        let other = try String(contentsOfFile: Self.manifestPath, encoding: .utf8) + "  parrot: { url: \"piratebay://parrot\" }\n"
        let otherURL = try folder.write(other, to: "other.yml")
        try #require(try Manifest(contentsOf: otherURL).fingerprint != manifest.fingerprint)
        let replayed = try runner.run(["paths", "--last", "3", "--format", "json", "--manifest", otherURL.path], directory: folder.url)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let expected = try Self.expectedTable(store: store, manifest: manifest, signature: nil, last: 3)
        #expect(try JSONParser.parse(replayed.stdoutBytes) == expected)
        let long = try runner.run(
            ["paths", "--last", String(ScreenPath.storedCount + 1), "--format", "json", "--manifest", Self.manifestPath],
            directory: folder.url)
        #expect(
            try JSONParser.parse(long.stdoutBytes)
                == Self.expectedTable(store: store, manifest: manifest, signature: nil, last: ScreenPath.storedCount + 1))
    }

    @Test("Text output, the stored manifest by default, and clear errors for a bad group, a bad --last and no manifest")
    func textAndErrors() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let samples = PackageRoot.url.appendingPathComponent("Samples")
        _ = try runner.run(
            [
                "ingest", samples.appendingPathComponent("reports").path, "--trails", samples.appendingPathComponent("trails").path,
                "--manifest", Self.manifestPath, "--quiet",
            ],
            directory: folder.url)
        let text = try runner.run(["paths", "--manifest", Self.manifestPath], directory: folder.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Paths to the crash, all reports: the last 5 screens of 9 reports with a trail\n"), "\(text.stdout)")
        #expect(text.stdout.contains(" › "))
        let badGroup = try runner.run(["paths", "nope", "--manifest", Self.manifestPath], directory: folder.url)
        #expect(badGroup.status == 1)
        #expect(badGroup.stderr.contains("no crash group has an ID starting with \"nope\""), "\(badGroup.stderr)")
        let badLast = try runner.run(["paths", "--last", "0", "--manifest", Self.manifestPath], directory: folder.url)
        #expect(badLast.status == 64)
        #expect(badLast.stderr.contains("--last takes a number of screens"))
        // Without --manifest, the manifest ingest stored is used
        let stored = try runner.run(["paths"], directory: folder.url)
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout == text.stdout)
        let empty = try TemporaryFolder()
        defer { empty.remove() }
        let noStore = try runner.run(["paths"], directory: empty.url)
        #expect(noStore.status == 1)
        #expect(noStore.stderr.contains("there is no crash store at crashtrail.sqlite"), "\(noStore.stderr)")
        let report = #"{"crashtrail":1,"id":"only","time":"2026-11-03T10:00:00Z","app":{"bundleID":"com.example.piratebay"}}"#
        _ = try empty.write(report, to: "in/only.json")
        #expect(try runner.run(["ingest", "in", "--quiet"], directory: empty.url).status == 0)
        let noManifest = try runner.run(["paths"], directory: empty.url)
        #expect(noManifest.status == 1)
        #expect(noManifest.stderr.contains("pass --manifest"), "\(noManifest.stderr)")
        // A manifest of another app leaves every trail out, and says so
        let harbor = samples.appendingPathComponent("Harbor/harbor.yml").path
        let other = try runner.run(["paths", "--manifest", harbor, "--manifest", harbor], directory: folder.url)
        #expect(other.status == 0)
        #expect(other.stderr.contains("left out of the table: no --manifest for the app com.example.piratebay"), "\(other.stderr)")
    }
}
