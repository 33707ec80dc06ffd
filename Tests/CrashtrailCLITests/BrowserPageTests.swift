import CrashtrailCore
import CrashtrailSymbols
import CrashtrailTestSupport
import Foundation
import Testing

/// The HTML pages as a person sees them: opened in headless Chromium, the DOM after load has every step, screen and
/// link, no script fails, hostile values stay text, and a screenshot of each page is kept under
/// `.build/artifacts/screenshots/` (CI keeps that folder).
@Suite(
    "Pages in a browser",
    .enabled(if: Browser.located != nil || ConformanceSuite.isRequired, "Chromium is not installed: apt-get install chromium"))
struct BrowserPageTests {
    static let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path

    @Test("The replay page, the site's index, a group page and a report page load with everything on them")
    func pagesLoad() throws {
        let browser = try #require(Browser.located, "CI needs Chromium to test the pages: apt-get install chromium")
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("browser")
        defer { folder.remove() }
        let root = PackageRoot.url.path
        let ingest = try runner.run(
            ["ingest", "\(root)/Samples/reports", "--trails", "\(root)/Samples/trails", "--manifest", Self.manifest, "--quiet"],
            directory: folder.url)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let site = try runner.run(["report", "--html", "site", "--quiet"], directory: folder.url)
        #expect(site.status == 0, "\(site.stderr)")
        let sample = "\(root)/Samples/trails-golden/trails/sign-in-interrupted.json"
        let replay = try runner.run(["replay", sample, "--manifest", Self.manifest, "--format", "html"], directory: folder.url)
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayPage = try folder.write(replay.stdout, to: "replay.html")
        let json = try JSONParser.parse(try runner.run(["replay", sample, "--manifest", Self.manifest, "--format", "json"]).stdout)

        // The replay page: every step is a row, every link a code element, every screen shown
        let dom = try browser.dom(of: replayPage)
        let steps = try #require(json.objectValue?["steps"]?.arrayValue)
        #expect(dom.count(of: "<td class=\"num\">") == steps.count * 2, "a number and a depth cell per step")
        for url in try #require(json.objectValue?["links"]?.objectValue?["urls"]?.arrayValue) {
            #expect(dom.contains("<code>\(try #require(url.stringValue))</code>"))
        }
        for screen in ["home", "marketplace", "page(3)", "item(id: \"L-42\")", "profile(id: \"P-7\")", "myProfile", "login"] {
            #expect(dom.contains(screen), "\(screen)")
        }
        try browser.screenshot(of: replayPage, named: "replay")

        // The site: the index links every group; a group page ranks its paths; a report page is a replay
        let index = folder.url.appendingPathComponent("site/index.html")
        let indexDOM = try browser.dom(of: index)
        let groups = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/groups").path).sorted()
        #expect(!groups.isEmpty)
        for group in groups { #expect(indexDOM.contains("href=\"groups/\(group)\"")) }
        try browser.screenshot(of: index, named: "site-index")
        let groupPage = folder.url.appendingPathComponent("site/groups/\(groups[0])")
        let groupDOM = try browser.dom(of: groupPage)
        #expect(groupDOM.contains("Paths that lead to this crash"))
        #expect(groupDOM.contains("href=\"../reports/"))
        try browser.screenshot(of: groupPage, named: "site-group")
        let reports = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/reports").path).sorted()
        let reportDOM = try browser.dom(of: folder.url.appendingPathComponent("site/reports/\(reports[0])"))
        #expect(reportDOM.contains("Shortest links") && reportDOM.contains("href=\"../groups/"))
    }

    @Test(
        "A report without a trail has a page: its crashed thread as symbolicated, the app's images without a debug file; no manifest needed",
        .enabled(
            if: SymbolizerLocator.locate() != nil || ConformanceSuite.isRequired, "llvm-symbolizer was not found (apt-get install llvm)"))
    func trailLessReportPage() throws {
        let browser = try #require(Browser.located, "CI needs Chromium to test the pages: apt-get install chromium")
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("browser")
        defer { folder.remove() }
        let debug = try CrashProbeFixtures.unpack(into: folder.url.appendingPathComponent("crashes"))
        let symbols = try runner.run(["symbols", "add", debug.path, "--quiet"], directory: folder.url)
        #expect(symbols.status == 0, "\(symbols.stderr)")
        let ingest = try runner.run(["ingest", "crashes", "--quiet"], directory: folder.url)
        #expect(ingest.status == 0, "\(ingest.stderr)")

        // No manifest anywhere: no report has a trail, so none is needed
        let site = try runner.run(["report", "--html", "site"], directory: folder.url)
        #expect(site.status == 0, "\(site.stderr)")
        #expect(site.stdout.hasPrefix("Wrote 9 pages to site (2 groups, 6 reports)"), "\(site.stdout)")

        let reports = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/reports").path)
        #expect(reports.count == 6, "every report has a page")
        var sawMissing = false
        for name in reports {
            let dom = try browser.dom(of: folder.url.appendingPathComponent("site/reports/\(name)"))
            #expect(dom.contains("Crashed thread") && dom.contains("-[CRLDetailViewController doCrash]"), "\(name)")
            #expect(dom.contains("-[CRLCrashNULL crash]") || dom.contains("-[CRLCrashROPage crash]"), "\(name)")
            #expect(dom.contains("It carries no trail"))
            if dom.contains("No debug file for 2 images of the app") { sawMissing = true }
        }
        #expect(sawMissing, "the simulator's build has no debug file in the fixtures")
        let groups = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("site/groups").path)
        let groupDOM = try browser.dom(of: folder.url.appendingPathComponent("site/groups/\(groups.sorted()[0])"))
        #expect(groupDOM.contains("3 reports, 0% with a trail") && groupDOM.contains("href=\"../reports/"))
        try browser.screenshot(
            of: folder.url.appendingPathComponent("site/reports/\(reports.sorted()[0])"), named: "site-report-without-trail")
    }

    @Test("Hostile values in a trail stay text in the browser: no script of theirs runs, no element of theirs appears")
    func hostilePage() throws {
        let browser = try #require(Browser.located, "CI needs Chromium to test the pages: apt-get install chromium")
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder("browser")
        defer { folder.remove() }
        let hostile = "<script>document.title='pwned'</script><img src=x onerror=\\\"document.title='pwned'\\\">"
        let trail = """
            {"version":1,"app":{"bundleID":"com.example.piratebay","version":"\(hostile)","build":"1"},"session":{"id":"\(hostile)","started":"2026-11-02T14:45:05Z","pid":1},"steps":[{"t":10,"op":"select","tab":1},{"t":900,"op":"push","to":{"search":{"text":"\(hostile)"}}},{"t":1900,"op":"push","to":{"\(hostile)":{}}},{"t":2900,"op":"open","url":"piratebay://item/%3Cscript%3E"}]}
            """
        let file = try folder.write(trail, to: "hostile.json")
        let replay = try runner.run(["replay", file.path, "--manifest", Self.manifest, "--format", "html"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let page = try folder.write(replay.stdout, to: "hostile.html")
        let dom = try browser.dom(of: page)
        #expect(dom.contains("<title>Replay of "))
        #expect(!dom.contains("pwned</title>"))
        #expect(!dom.contains("<img"))
        #expect(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"))
        try browser.screenshot(of: page, named: "hostile")
    }
}

/// Headless Chromium, as Debian installs it.
struct Browser: Sendable {
    let executable: String

    static let located: Browser? = {
        let candidates = [ProcessInfo.processInfo.environment["CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(Browser.init)
    }()

    /// The DOM after load; fails when a script on the page threw.
    func dom(of page: URL) throws -> String {
        let result = try run(["--dump-dom", page.absoluteString])
        #expect(result.status == 0, "chromium exited with \(result.status): \(result.stderr.suffix(500))")
        let errors = result.stderr.split(separator: "\n").filter {
            $0.contains("Uncaught") || $0.contains("CONSOLE") && $0.contains("rror")
        }
        #expect(errors.isEmpty, "script errors on \(page.lastPathComponent): \(errors.joined(separator: "\n"))")
        return result.stdout
    }

    /// Keeps a screenshot of the page under `.build/artifacts/screenshots/NAME.png`.
    func screenshot(of page: URL, named name: String) throws {
        let folder = PackageRoot.url.appendingPathComponent(".build/artifacts/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(name).png")
        let result = try run(["--hide-scrollbars", "--window-size=1100,1400", "--screenshot=\(file.path)", page.absoluteString])
        #expect(result.status == 0 && FileManager.default.fileExists(atPath: file.path), "no screenshot of \(page.lastPathComponent)")
    }

    private func run(_ arguments: [String]) throws -> CommandRunner.Result {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("crashtrail-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try CommandRunner(executable: URL(fileURLWithPath: executable)).run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                "--enable-logging=stderr", "--v=0",
            ]
                + arguments)
    }
}

extension String {
    fileprivate func count(of needle: String) -> Int { components(separatedBy: needle).count - 1 }
}
