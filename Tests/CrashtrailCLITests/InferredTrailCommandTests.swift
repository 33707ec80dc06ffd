import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// SPEC section 15 as a user meets it: breadcrumb-only crashes replay, show their unknown values, are counted apart
/// in `paths`, `show` and the site, and crashes without frames group by their crash screen.
@Suite("Inferred trails on the command line")
struct InferredTrailCommandTests {
    static let manifest = """
        app: com.example.piratebay
        tabs: [home, marketplace]
        transitions: { modal: 500 }
        destinations:
          home:        { url: "piratebay://home", screen: HomeViewController }
          marketplace: { url: "piratebay://marketplace", screen: MarketplaceViewController }
          item:        { url: "piratebay://item/{id}", screen: PirateBay.ItemViewController }
          settings:    { url: "piratebay://settings", screen: SettingsViewController }
        """

    /// A Sentry event with no stack (a watchdog kill) whose breadcrumbs saw `screens`.
    static func event(id: Int, screens: [String]) -> String {
        let crumbs = screens.enumerated().map { index, screen in
            #"{"type": "navigation", "category": "ui.lifecycle", "timestamp": "2026-11-02T08:30:0\#(index).000Z", "data": {"screen": "\#(screen)"}}"#
        }
        return """
            {"event_id": "\(String(format: "%032x", id))", "timestamp": "2026-11-02T08:31:00Z", "release": "com.example.piratebay@3.1.0+412",
             "exception": {"values": [{"type": "Watchdog", "mechanism": {"type": "mach", "meta": {"signal": {"name": "SIGKILL"}}}}]},
             "breadcrumbs": [\(crumbs.joined(separator: ", "))]}
            """
    }

    @Test("Replay, show, paths and the site of breadcrumb-only crashes without frames")
    func endToEnd() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(Self.manifest.utf8).write(to: folder.url.appendingPathComponent("m.yml"))
        let reports = folder.url.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        // Given three watchdog kills: two on an item, one in settings, each seen only through breadcrumbs
        let events = [
            ["MarketplaceViewController", "PirateBay.ItemViewController"], ["ItemViewController"],
            ["SettingsViewController", "UIAlertController"],
        ]
        for (index, screens) in events.enumerated() {
            try Data(Self.event(id: index + 1, screens: screens).utf8).write(to: reports.appendingPathComponent("e\(index).json"))
        }
        let ingest = try runner.run(["ingest", "reports", "--manifest", "m.yml"], directory: folder.url)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.contains("missing 3 (3 with a trail inferred from breadcrumbs)"), "\(ingest.stdout)")
        // Then they group by the screen at the crash
        let list = try runner.run(["list", "--format", "json"], directory: folder.url)
        let groups = try JSONParser.parse(list.stdoutBytes).arrayValue ?? []
        #expect(
            groups.compactMap { $0.objectValue?["signature"]?.stringValue }.sorted() == [
                "Watchdog/SIGKILL @ screen:item", "Watchdog/SIGKILL @ screen:settings",
            ])
        // replay goes through every breadcrumb's screen, shows the unknown ID as unknown and does not guess its link
        let replay = try runner.run(["replay", String(format: "%032x", 1)], directory: folder.url)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("item(id: unknown)"), "\(replay.stdout)")
        #expect(replay.stderr.contains("inferred from the crash reporter's breadcrumbs"), "\(replay.stderr)")
        let json = try runner.run(["replay", String(format: "%032x", 1), "--format", "json"], directory: folder.url)
        let links = try JSONParser.parse(json.stdoutBytes).objectValue?["links"]?.objectValue
        #expect(links?["urls"] == .array([.string("piratebay://marketplace")]))
        #expect(
            links?["unreproducible"]
                == .array([.object(["screen": .object(["item": .object(["id": .null])]), "reason": .string("unknown-value")])]))
        // show and paths count the inferred trails apart
        let itemGroup = try #require(
            groups.first { $0.objectValue?["signature"]?.stringValue == "Watchdog/SIGKILL @ screen:item" }?.objectValue?["id"]?.stringValue)
        let show = try runner.run(["show", itemGroup], directory: folder.url)
        #expect(show.stdout.contains("2 reports, 2 with a trail (2 inferred from breadcrumbs)"), "\(show.stdout)")
        let paths = try runner.run(["paths", "--group", itemGroup], directory: folder.url)
        #expect(paths.stdout.contains("2 of the paths were inferred from the crash reporter's breadcrumbs"), "\(paths.stdout)")
        #expect(paths.stdout.contains("marketplace › item *"), "\(paths.stdout)")
        let pathsJSON = try runner.run(["paths", "--group", itemGroup, "--format", "json"], directory: folder.url)
        #expect(
            try JSONParser.parse(pathsJSON.stdoutBytes)
                == .array([
                    .object(["screens": .array([.string("home"), .string("item")]), "count": .int(1), "share": .int(50)]),
                    .object([
                        "screens": .array([.string("home"), .string("marketplace"), .string("item")]), "count": .int(1), "share": .int(50),
                    ]),
                ]))
        // and the site marks them
        let site = try runner.run(["report", "--html", "site"], directory: folder.url)
        #expect(site.status == 0, "\(site.stderr)")
        let pages = folder.url.appendingPathComponent("site/groups")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: pages.path).first { $0.hasPrefix(itemGroup) })
        let page = try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8)
        #expect(page.contains("2 of these paths were inferred from the crash reporter's breadcrumbs"))
    }
}
