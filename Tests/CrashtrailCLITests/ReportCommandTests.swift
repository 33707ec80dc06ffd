import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail report --html DIR`: the same store gives the same site, filters apply, bad input is refused clearly.
@Suite("report --html")
struct ReportCommandTests {
    static let root = PackageRoot.url.path
    static let manifest = "\(root)/Samples/PirateBay/Sources/PirateBay/piratebay.yml"

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("The same store gives the same bytes; every report has a page, a replay when it has a trail; --app and --since filter")
    func deterministicSite() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("report")
        defer { folder.remove() }
        let ingest = try runner.run(
            ["ingest", "\(Self.root)/Samples/reports", "--trails", "\(Self.root)/Samples/trails", "--manifest", Self.manifest, "--quiet"],
            directory: folder.url)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let first = try runner.run(["report", "--html", "one"], directory: folder.url)
        let second = try runner.run(["report", "--html", "two", "--quiet"], directory: folder.url)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(first.stdout.hasPrefix("Wrote ") && second.stdout.isEmpty)
        let one = try Self.files(in: folder.url.appendingPathComponent("one"))
        let two = try Self.files(in: folder.url.appendingPathComponent("two"))
        #expect(one == two && !one.isEmpty)
        let listed = try JSONParser.parse(try runner.run(["list", "--reports", "--format", "json"], directory: folder.url).stdout)
        let withTrail = try #require(listed.arrayValue).filter {
            ["embedded", "joined"].contains($0.objectValue?["trailInfo"]?.objectValue?["source"]?.stringValue ?? "")
        }
        let reportPages = one.keys.filter { $0.hasPrefix("/reports/") }
        #expect(!withTrail.isEmpty)
        #expect(reportPages.count == listed.arrayValue?.count, "every report has a page")
        // A replay page for each report with a trail, the page of a report without one for the rest
        let replays = reportPages.filter { String(decoding: one[$0] ?? Data(), as: UTF8.self).contains("<h1>Replay of ") }
        #expect(replays.count == withTrail.count, "\(replays.count) replay pages for \(withTrail.count) reports with a trail")
        #expect(one.keys.contains("/index.html"))
        // --app of an app with no crashes gives an index that says so
        let other = try runner.run(["report", "--html", "none", "--app", "org.example.nothing", "--quiet"], directory: folder.url)
        #expect(other.status == 0)
        let index = try String(contentsOf: folder.url.appendingPathComponent("none/index.html"), encoding: .utf8)
        #expect(index.contains("No crashes in the store for org.example.nothing"))
        // --since after every crash: no groups
        let late = try runner.run(["report", "--html", "late", "--since", "2030-01-01", "--quiet"], directory: folder.url)
        #expect(late.status == 0)
        #expect(try Self.files(in: folder.url.appendingPathComponent("late")).keys.sorted() == ["/.crashtrail-site.json", "/index.html"])
    }

    @Test("Without a manifest, a store of reports without trails gets its site: a page per report with its frames")
    func noManifestNeeded() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("report")
        defer { folder.remove() }
        let report =
            #"{"crashtrail":1,"id":"lone","time":"2026-11-03T10:00:00Z","app":{"bundleID":"com.example.piratebay","version":"1.0"},"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},"frames":[{"image":"PirateBay","symbol":"ListingCell.configure(with:)","offset":4096,"inApp":true}]}"#
        _ = try folder.write(report, to: "in/lone.json")
        #expect(try runner.run(["ingest", "in", "--quiet"], directory: folder.url).status == 0)
        let site = try runner.run(["report", "--html", "site"], directory: folder.url)
        #expect(site.status == 0, "\(site.stderr)")
        #expect(site.stdout.hasPrefix("Wrote 3 pages to site (1 group, 1 report)"), "\(site.stdout)")
        let pages = try Self.files(in: folder.url.appendingPathComponent("site")).filter { $0.key.hasPrefix("/reports/") }
        let page = String(decoding: try #require(pages.values.first), as: UTF8.self)
        #expect(page.contains("<h1>Report <span class=\"mono\">lone</span></h1>") && page.contains("ListingCell.configure(with:)"))
        #expect(page.contains("It carries no trail"))
    }

    /// The N of "Wrote N pages".
    static func pagesWritten(_ output: String) throws -> Int {
        let match = try #require(output.firstMatch(of: /Wrote (\d+) pages/), "\(output)")
        return try #require(Int(match.output.1))
    }

    @Test("Run again into the same folder, only changed pages are written, left reports' pages removed, and the bytes are a fresh build's")
    func incrementalSite() throws {
        // Given a site of the samples without their trail files
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("report")
        defer { folder.remove() }
        let ingest = try runner.run(
            ["ingest", "\(Self.root)/Samples/reports", "--manifest", Self.manifest, "--quiet"], directory: folder.url)
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let first = try runner.run(["report", "--html", "site"], directory: folder.url)
        let written = try Self.pagesWritten(first.stdout)

        // When it runs again on the same store
        let again = try runner.run(["report", "--html", "site"], directory: folder.url)

        // Then nothing is written
        #expect(again.stdout.hasPrefix("Wrote 0 pages (\(written) unchanged)"), "\(again.stdout)")

        // When a trail file joins its crash and the site is made again
        let join = try runner.run(
            ["ingest", "\(Self.root)/Samples/reports", "--trails", "\(Self.root)/Samples/trails", "--quiet"], directory: folder.url)
        try #require(join.status == 0, "\(join.stderr)")
        let changed = try runner.run(["report", "--html", "site"], directory: folder.url)
        let fresh = try runner.run(["report", "--html", "fresh", "--quiet"], directory: folder.url)

        // Then only the joined report's page and the pages that list it are written, and the site is a fresh build's
        #expect(changed.status == 0 && fresh.status == 0, "\(changed.stderr)\(fresh.stderr)")
        let rewritten = try Self.pagesWritten(changed.stdout)
        #expect(rewritten >= 2 && rewritten <= 3, "the new report page, its group page and perhaps the index: \(changed.stdout)")
        #expect(try Self.files(in: folder.url.appendingPathComponent("site")) == Self.files(in: folder.url.appendingPathComponent("fresh")))

        // When the selection narrows to no report
        let narrowed = try runner.run(["report", "--html", "site", "--since", "2030-01-01"], directory: folder.url)

        // Then every report and group page is removed, as a fresh build into an empty folder would have none
        #expect(narrowed.stdout.contains("removed"), "\(narrowed.stdout)")
        #expect(try Self.files(in: folder.url.appendingPathComponent("site")).keys.sorted() == ["/.crashtrail-site.json", "/index.html"])
    }

    @Test("Bad input: a date that is no date, no store, a folder that cannot be written")
    func badInput() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("report")
        defer { folder.remove() }
        let date = try runner.run(["report", "--html", "site", "--since", "yesterday"], directory: folder.url)
        #expect(date.status == 64 && date.stderr.contains("--since takes a date"))
        let missing = try runner.run(
            ["report", "--html", "site", "--store", "nowhere.sqlite", "--manifest", Self.manifest], directory: folder.url)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere.sqlite"), "\(missing.stderr)")
        _ = try runner.run(
            ["ingest", "\(Self.root)/Samples/reports", "--manifest", Self.manifest, "--quiet"], directory: folder.url)
        try folder.write("a file, not a folder", to: "taken")
        let blocked = try runner.run(["report", "--html", "taken/site"], directory: folder.url)
        #expect(blocked.status == 1 && blocked.stderr.hasPrefix("Error: "), "\(blocked.stderr)")
    }
}
