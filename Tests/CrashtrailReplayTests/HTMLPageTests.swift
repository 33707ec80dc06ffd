import CrashtrailCore
import CrashtrailReplay
import CrashtrailTestSupport
import Foundation
import Testing

/// The HTML pages: everything a trail holds shows as text, escaped, never as markup; pages are deterministic.
@Suite("HTML pages")
struct HTMLPageTests {
    static let hostile = [
        "<script>document.title='pwned'</script>",
        "\"><img src=x onerror=\"document.title='pwned'\">",
        "'\u{301}><b>quote with a combining mark</b>",
        "\"\u{301} onmouseover=\"document.title='pwned'",
        "\u{202E}gnp.exe\u{202C} right-to-left",
        "`backtick` & ampersand <!-- comment -->",
        "control \u{0007}\u{001B} characters",
        String(repeating: "ten thousand characters ", count: 417),
    ]

    /// A trail over the PirateBay manifest whose values, app, session and URLs are hostile.
    static func hostileTrail() -> Trail {
        var steps: [Step] = [Step(t: 100, .select(tab: 1))]
        for (index, text) in hostile.enumerated() {
            let t = Int64(1_000 * (index + 1))
            steps.append(Step(t: t, .push(Destination("search", ["text": .string(text)]))))
            steps.append(Step(t: t + 100, .push(Destination("item", ["id": .string(text)]))))
            steps.append(
                Step(t: t + 200, .open(.url("piratebay://item/\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")))
            )
            steps.append(Step(t: t + 300, .push(Destination(text, ["k": .string(text)]))))
        }
        return Trail(
            app: Trail.AppInfo(bundleID: "com.example.piratebay", version: hostile[0], build: hostile[1]),
            session: Trail.Session(id: hostile[2], started: hostile[3], pid: 1), steps: steps)
    }

    @Test("Hostile values render as escaped text: one script (the page's own), no injected element or attribute")
    func escaping() throws {
        let manifest = try TestManifests.piratebay()
        let replay = Replayer(manifest: manifest).replay(Self.hostileTrail(), report: Self.hostile[0])
        let page = ReplayRenderer.render(replay, as: .html)
        #expect(page.components(separatedBy: "<script").count == 2, "exactly one script element")
        #expect(!page.contains("<img"))
        #expect(!page.contains("<b>"))
        #expect(!page.contains("onerror=\""))
        #expect(!page.contains("onmouseover=\""))
        #expect(!page.contains("<!-- comment"))
        #expect(page.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"))
        // A quote followed by a combining mark is escaped too (it is one Character but two scalars)
        let scalars = Array(page.unicodeScalars)
        #expect(!scalars.indices.dropLast().contains { (scalars[$0] == "\"" || scalars[$0] == "'") && scalars[$0 + 1] == "\u{301}" })
        #expect(page.contains("&quot;\u{301}"))
        // Control characters become U+FFFD; long values stay whole, as text
        #expect(!page.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x1B })
        #expect(page.contains(Self.hostile.last!))
        #expect(page.contains("\u{202E}gnp.exe"))
    }

    @Test("The same replay gives the same bytes, and a page names every step, screen and link")
    func deterministicAndComplete() throws {
        let manifest = try TestManifests.piratebay()
        let trail = try Trail(
            json: try Data(
                contentsOf: GoldenSamples.packageRoot.appendingPathComponent("Samples/trails-golden/trails/sign-in-interrupted.json")))
        let replay = Replayer(manifest: manifest).replay(trail, report: "sign-in-interrupted")
        let page = ReplayRenderer.render(replay, as: .html)
        #expect(page == ReplayRenderer.render(Replayer(manifest: manifest).replay(trail, report: "sign-in-interrupted"), as: .html))
        #expect(
            page.components(separatedBy: "<tr>").count + page.components(separatedBy: "<tr class=\"anomaly\">").count - 2 == replay.steps
                .count + 1)
        for link in replay.links.urls { #expect(page.contains("<code>\(link)</code>")) }
        for stack in replay.final.stacks { for screen in stack { #expect(page.contains(">\(screen.name)")) } }
        #expect(page.contains("<main"))
        #expect(page.contains("aria-label=\"Copy link 1\""))
        #expect(page.contains("prefers-color-scheme: dark"))
        #expect(!page.contains("http://") && !page.contains("https://"), "a page loads nothing from elsewhere")
    }

    @Test("A site names each report's file safely and links pages to each other")
    func site() throws {
        let manifest = try TestManifests.piratebay()
        let replay = Replayer(manifest: manifest).replay(Self.hostileTrail(), report: Self.hostile[0])
        let report = TriageSite.Report(
            id: "../../../etc/passwd", time: nil, version: "1", format: "crashtrail", trail: "embedded")
        let other = TriageSite.Report(id: Self.hostile[1], time: nil, version: nil, format: "ips", trail: "missing")
        let group = TriageSite.Group(
            id: "ab8bd8a88e91", signature: Self.hostile[0], count: 2, firstSeen: nil, lastSeen: nil, versions: ["1"], withTrail: 1,
            byDay: [(day: "2026-11-02", count: 2)], paths: PathTable(paths: [["home", Self.hostile[0]]], last: 5), reports: [report, other])
        let site = TriageSite(groups: [group], app: Self.hostile[1], source: "store.sqlite")
        let pages = site.pages() + [TriageSite.reportPage(replay, reportID: report.id, groupID: group.id)]
        #expect(
            pages.map(\.path) == [
                "index.html", "groups/ab8bd8a88e91-\(pages[1].path.dropFirst(20).prefix(16)).html",
                "reports/\(TriageSite.fileName(for: "../../../etc/passwd")).html",
            ])
        for page in pages {
            #expect(!page.path.contains("..") && page.path.split(separator: "/").count <= 2)
            #expect(page.html.components(separatedBy: "<script").count == 2, "\(page.path)")
            #expect(!page.html.contains("<img"))
        }
        #expect(pages[0].html.contains("href=\"\(pages[1].path)\""))
        #expect(pages[1].html.contains("href=\"../\(pages[2].path)\""))
        #expect(site.pages().map(\.html) == pages.dropLast().map(\.html))
        #expect(pages[2].html.contains("href=\"../\(pages[1].path)\""))
        #expect(TriageSite.fileName(for: String(repeating: "x", count: 10_000)).count <= 48 + 17)
        // A group with more reports than a page lists says how many more, and how to list them all
        var big = group
        big.moreReports = 1_234
        let bigPage = TriageSite(groups: [big], source: "store.sqlite").pages()[1].html
        #expect(bigPage.contains("The newest 2 of 2 reports; every report has its page"))
        #expect(!pages[1].html.contains("every report has its page"))
        #expect(TriageSite.fileName(for: "a/b") != TriageSite.fileName(for: "a_b"))
    }

    @Test("A report page shows the crashed thread: function, file and line where a debug file gave them, inlined frames marked")
    func crashedThread() throws {
        // Given a replay and three frames, one inlined into the next, one in an image without a debug file
        let manifest = try TestManifests.piratebay()
        let replay = Replayer(manifest: manifest).replay(Self.hostileTrail(), report: "r")
        let frames = [
            TriageSite.Frame(number: 0, image: "AppC", function: "divide", location: "crash.c:49", inlined: true, offset: 17_532),
            TriageSite.Frame(number: 0, image: "AppC", function: "crash_divide", location: "crash.c:53", inlined: false, offset: 17_532),
            TriageSite.Frame(number: 1, image: "<Kaboom>", function: nil, location: nil, inlined: false, offset: 1_234),
        ]

        // When
        let page = TriageSite.reportPage(replay, reportID: "r", groupID: "g", frames: frames).html
        let bare = TriageSite.reportPage(replay, reportID: "r", groupID: "g").html

        // Then
        #expect(page.contains("<h2 id=\"frames-title\">Crashed thread</h2>"))
        #expect(
            page.contains(
                #"<tr><td class="num">0</td><td>AppC</td><td class="mono">divide <span class="badge">inlined</span></td><td class="mono">crash.c:49</td>"#
            ))
        #expect(
            page.contains(#"<tr><td class="num">0</td><td>AppC</td><td class="mono">crash_divide</td><td class="mono">crash.c:53</td>"#))
        #expect(page.contains(#"<tr><td class="num">1</td><td>&lt;Kaboom&gt;</td><td class="mono">???</td>"#))
        #expect(!bare.contains("Crashed thread"))
        #expect(Set(frames.map(\.fingerprint)).count == 3)
    }
}
