import CrashtrailCore
import CrashtrailEncoding
import CrashtrailReports
import Foundation
import Testing

@testable import CrashtrailIntake
@testable import CrashtrailStore

/// SPEC section 15 at ingest: reports that carry no recorded trail get one inferred from their reporter's own
/// breadcrumbs, a recorded trail always wins, and crashes without frames are grouped by their crash screen.
@Suite("Trails inferred from breadcrumbs at ingest")
struct BreadcrumbTrailTests {
    /// The sample app's manifest with the screen names its UIKit classes and Analytics screens have.
    static let manifestText = """
        app: com.example.piratebay
        tabs: [home, marketplace, myProfile]
        transitions: { modal: 500 }
        conditions:
          signedIn: { flow: login }
        destinations:
          home:        { url: "piratebay://home", screen: HomeViewController }
          marketplace: { url: "piratebay://marketplace", screens: [MarketplaceViewController, marketplace] }
          myProfile:   { url: "piratebay://me", requires: signedIn }
          item:        { url: "piratebay://item/{id}", screens: [PirateBay.ItemViewController, item_detail] }
          settings:    { url: "piratebay://settings", screen: SettingsViewController }
          login:       { url: "piratebay://login", presentation: modal, screen: LoginViewController }
        """

    static func codec(screens: Bool = true) throws -> TrailCodec {
        let text = screens ? manifestText : manifestText.replacing(/, screens?: (\[[^\]]*\]|\w+)/, with: "")
        return TrailCodec(manifests: [try Manifest(yaml: text, source: "piratebay.yml")])
    }

    /// A Sentry event as sentry-cocoa writes it: `ui.lifecycle` breadcrumbs for each `viewDidAppear`, strings for
    /// `beingPresented`, and a `navigation` breadcrumb with `to`.
    static func sentryEvent(id: String = "0f6a4b1e2d3c4b5a8f9e0d1c2b3a4f5e", frames: Bool, valuesObject: Bool = true) -> String {
        let crumbs = """
            [
              {"type": "debug", "category": "started", "message": "Breadcrumb Tracking", "timestamp": "2026-11-02T08:30:00.000Z"},
              {"type": "navigation", "category": "ui.lifecycle", "timestamp": "2026-11-02T08:30:01.000Z",
               "data": {"screen": "UINavigationController", "beingPresented": "false"}},
              {"type": "navigation", "category": "ui.lifecycle", "timestamp": "2026-11-02T08:30:02.000Z",
               "data": {"screen": "PirateBay.MarketplaceViewController", "beingPresented": "false"}},
              {"type": "navigation", "category": "ui.lifecycle", "timestamp": 1793608204.5,
               "data": {"screen": "PirateBay.ItemViewController", "beingPresented": "false"}},
              {"type": "navigation", "category": "ui.lifecycle", "timestamp": "2026-11-02T08:30:06.000Z",
               "data": {"screen": "LoginViewController", "beingPresented": true}},
              {"type": "navigation", "category": "navigation", "timestamp": "2026-11-02T08:30:09.000Z",
               "data": {"from": "LoginViewController", "to": "ItemViewController"}},
              {"type": "navigation", "category": "app.lifecycle", "data": {"state": "background"}}
            ]
            """
        let stack =
            frames
            ? #""stacktrace": {"frames": [{"function": "main", "package": "/private/var/containers/Bundle/Application/PirateBay.app/PirateBay", "in_app": true}, {"function": "ItemViewController.viewDidLoad()", "package": "/private/var/containers/Bundle/Application/PirateBay.app/PirateBay", "in_app": true}]},"#
            : ""
        return """
            {"event_id": "\(id)", "timestamp": "2026-11-02T08:30:10Z", "platform": "cocoa",
             "release": "com.example.piratebay@3.1.0+412",
             "exception": {"values": [{"type": "\(frames ? "EXC_BAD_ACCESS" : "MemoryTermination")", \(stack)
               "mechanism": {"type": "mach", "meta": {"signal": {"name": "\(frames ? "SIGSEGV" : "SIGKILL")"}}}}]},
             "breadcrumbs": \(valuesObject ? "{\"values\": \(crumbs)}" : crumbs)}
            """
    }

    static func record(_ text: String, codec: TrailCodec) throws -> ReportRecord {
        let bytes = Array(text.utf8)
        let outcomes = bytes.withUnsafeBufferPointer { PayloadProcessor(decoder: codec).process($0, source: "event.json").outcomes }
        guard case .record(let record)? = outcomes.first else {
            Issue.record("no record: \(outcomes)")
            throw CancellationError()
        }
        return record
    }

    static func ops(_ record: ReportRecord) throws -> [String] {
        let trail = try #require(try record.decodedTrail())
        return trail.steps.map { step in
            switch step.op {
            case .push(let to): "push \(to.canonicalJSON)"
            case .present(let to): "present \(to.canonicalJSON)"
            case .select(let tab): "select \(tab)"
            default: step.op.name
            }
        }
    }

    @Test("A Sentry event's breadcrumbs, as a list or as values, give a trail through every screen they name", arguments: [true, false])
    func sentryEvent(valuesObject: Bool) throws {
        let record = try Self.record(Self.sentryEvent(frames: true, valuesObject: valuesObject), codec: try Self.codec())
        #expect(record.trailSource == .inferred)
        // Marketplace is a tab root (select), the item's ID is unknown, login was presented and completed
        #expect(
            try Self.ops(record) == [
                "select 1", #"push {"item":{"id":null}}"#, #"present {"login":{}}"#, "dismiss",
            ])
        let trail = try #require(try record.decodedTrail())
        #expect(trail.session.started == "2026-11-02T08:30:02Z")
        #expect(trail.steps.map(\.t) == [0, 2500, 4000, 7000])
        #expect(trail.app == Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412"))
        #expect(record.trailDictionary == (try Self.codec()).dictionaries[0].idString)
        // A crash with frames keeps its frames' signature
        #expect(record.signature.contains("ItemViewController.viewDidLoad()"))
    }

    @Test("A trail the payload carries wins over its breadcrumbs")
    func embeddedWins() throws {
        let recorded = """
            {"version": 1, "app": {"bundleID": "com.example.piratebay", "version": "3.1.0", "build": "412"},
             "session": {"id": "S", "started": "2026-11-02T08:29:00Z", "pid": 7},
             "steps": [{"t": 5, "op": "push", "to": {"settings": {}}}]}
            """
        let event = Self.sentryEvent(frames: false).replacingOccurrences(
            of: #""platform": "cocoa","#, with: #""platform": "cocoa", "extra": {"crashtrail": \#(recorded)},"#)
        let record = try Self.record(event, codec: try Self.codec())
        #expect(record.trailSource == .embedded)
        #expect(try Self.ops(record) == [#"push {"settings":{}}"#])
        #expect(record.signature == "MemoryTermination/SIGKILL @ screen:settings")
    }

    @Test("Without a manifest that names screens, nothing is inferred")
    func noScreens() throws {
        let record = try Self.record(Self.sentryEvent(frames: true), codec: try Self.codec(screens: false))
        #expect(record.trailSource == .missing && record.trail == nil)
    }

    @Test("A crash without frames is grouped by the screen on top at the crash")
    func stacklessSignature() throws {
        let inferred = try Self.record(Self.sentryEvent(frames: false), codec: try Self.codec())
        #expect(inferred.signature == "MemoryTermination/SIGKILL @ screen:item")
        let bare = try Self.record(Self.sentryEvent(frames: false), codec: try Self.codec(screens: false))
        #expect(bare.signature == "MemoryTermination/SIGKILL @ (no frames)")
    }

    /// A manifest for sentry-cocoa's sample app, naming the screens its SentryCrash fixture's breadcrumbs saw.
    static func sentrySampleManifest() throws -> Manifest {
        try Manifest(
            yaml: """
                app: io.sentry.sample.iOS-Swift
                root: start
                destinations:
                  start: { url: "sample://start", screen: UINavigationController }
                  main: { url: "sample://main", screen: ViewController }
                  about: { url: "sample://about" }
                """, source: "sample.yml")
    }

    @Test("SentryCrash's scope breadcrumbs (a real sentry-cocoa file) give a trail", .needsFixtures)
    func sentryCrashFixture() throws {
        let file = try TestFiles.requiredFixtures().appendingPathComponent("kscrash/sentrycrash-bad-access-breadcrumbs.json")
        let record = try Self.record(
            String(contentsOf: file, encoding: .utf8), codec: TrailCodec(manifests: [try Self.sentrySampleManifest()]))
        #expect(record.format == .kscrash && record.trailSource == .inferred)
        // Its two ui.lifecycle breadcrumbs: the navigation controller (the root, already showing), then ViewController
        #expect(try Self.ops(record) == [#"push {"main":{}}"#])
        #expect(try record.decodedTrail()?.session.started == "2023-01-30T09:05:01.819Z")
    }

    @Test("At ingest, a trail file joins a report whose trail was inferred, in the same run or a later one", .needsFixtures)
    func joinReplacesInferred() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let codec = TrailCodec(manifests: [try Self.sentrySampleManifest()])
        let store = try TestFiles.memoryStore()
        let report = try TestFiles.requiredFixtures().appendingPathComponent("kscrash/sentrycrash-bad-access-breadcrumbs.json")
        // Given the SentryCrash report stored with a trail inferred from its breadcrumbs
        let first = try IngestPipeline(
            store: store, decoder: codec,
            options: IngestOptions(inputs: [report.path], quarantineDirectory: folder.appendingPathComponent("q").path, jobs: 1)
        ).run()
        #expect(first.trailsInferred == 1)
        #expect(try store.countReportsAwaitingTrail() == 1)
        // When its app's recorded trail (same pid and launch) arrives in a later run
        let recorded = Trail(
            app: Trail.AppInfo(bundleID: "io.sentry.sample.iOS-Swift", version: "7.31.5", build: "1"),
            session: Trail.Session(id: "S", started: "2023-01-30T09:05:01Z", pid: 495),
            steps: [Step(t: 500, .push(Destination("about")))])
        try Data(try codec.encode(recorded, as: .binary)).write(to: folder.appendingPathComponent("app.ctr"))
        let trails = folder.appendingPathComponent("trails")
        try FileManager.default.createDirectory(at: trails, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("app.ctr"), to: trails.appendingPathComponent("app.ctr"))
        let second = try IngestPipeline(
            store: store, decoder: codec,
            options: IngestOptions(
                inputs: [report.path], trailsDirectory: trails.path, quarantineDirectory: folder.appendingPathComponent("q").path, jobs: 1)
        ).run()
        // Then the recorded trail replaces the inferred one
        #expect(second.trailsJoined == 1)
        let stored = try #require(try store.allRecords().first)
        #expect(stored.trailSource == .joined)
        #expect(try stored.decodedTrail()?.steps == recorded.steps)
        #expect(try store.countReportsAwaitingTrail() == 0)
    }

    @Test("A Crashlytics row's screen_view breadcrumbs give a trail, by screen class or screen name")
    func crashlytics() throws {
        let row = """
            {"event_id": "c1", "issue_id": "i1", "bundle_identifier": "com.example.piratebay", "event_timestamp": "2026-11-02 08:30:10.000000 UTC",
             "application": {"display_version": "3.1.0", "build_version": "412"},
             "threads": [{"crashed": true, "signal_name": "SIGKILL", "frames": []}],
             "breadcrumbs": [
               {"timestamp": "2026-11-02 08:30:01.000000 UTC", "name": "screen_view",
                "params": [{"key": "firebase_screen_class", "value": "SettingsViewController"}, {"key": "firebase_screen", "value": "Settings"}]},
               {"timestamp": "2026-11-02 08:30:03.000000 UTC", "name": "purchase", "params": [{"key": "value", "value": "3"}]},
               {"timestamp": "2026-11-02 08:30:04.000000 UTC", "name": "screen_view",
                "params": [{"key": "firebase_screen_class", "value": "UIHostingController"}, {"key": "firebase_screen", "value": "item_detail"}]}
             ]}
            """
        let record = try Self.record(row, codec: try Self.codec())
        #expect(record.format == .crashlytics && record.trailSource == .inferred)
        #expect(try Self.ops(record) == [#"push {"settings":{}}"#, #"push {"item":{"id":null}}"#])
        #expect(record.signature == "unknown/SIGKILL @ screen:item")
    }

    @Test("A recorded trail that arrives later wins over the inferred one, and the group follows")
    func recordedTrailWins() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let codec = try Self.codec()
        let store = try TestFiles.memoryStore()
        // Given a stackless crash stored with an inferred trail, whose app also recorded a trail
        let event = Self.sentryEvent(frames: false)
        let input = folder.appendingPathComponent("in/event.json")
        try TestFiles.write(event, to: input)
        let options = IngestOptions(
            inputs: [input.path], quarantineDirectory: folder.appendingPathComponent("q").path, jobs: 1, batchSize: 3)
        let first = try IngestPipeline(store: store, decoder: codec, options: options).run()
        #expect(first.trailsInferred == 1 && first.trailsMissing == 0)
        let id = "0f6a4b1e2d3c4b5a8f9e0d1c2b3a4f5e"
        #expect(try store.record(id: id)?.signature == "MemoryTermination/SIGKILL @ screen:item")
        // When the recorded trail joins it (the report has no pid, so it is attached directly)
        let recorded = Trail(
            app: Trail.AppInfo(bundleID: "com.example.piratebay", version: "3.1.0", build: "412"),
            session: Trail.Session(id: "S", started: "2026-11-02T08:29:00Z", pid: 77),
            steps: [Step(t: 10, .push(Destination("settings")))])
        try store.attachTrail(recorded, toReport: id, crashScreen: recorded.crashScreen(manifest: codec.dictionaries[0].manifest))
        // Then the recorded trail is the report's, and its crash screen names the group
        let after = try #require(try store.record(id: id))
        #expect(after.trailSource == .joined)
        #expect(try after.decodedTrail() == recorded)
        #expect(after.signature == "MemoryTermination/SIGKILL @ screen:settings")
        #expect(try store.groups().map(\.signature) == ["MemoryTermination/SIGKILL @ screen:settings"])
        // and reprocessing keeps it so
        let summary = try store.reprocess(with: PayloadDeriver(decoder: codec))
        #expect(summary.unreadable.isEmpty)
        #expect(try store.record(id: id)?.signature == "MemoryTermination/SIGKILL @ screen:settings")
        #expect(try store.record(id: id)?.trailSource == .joined)
    }

    @Test("reprocess gives stored reports their inferred trails and new groups once the manifest names screens")
    func reprocessInfers() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TestFiles.memoryStore()
        let input = folder.appendingPathComponent("in/event.json")
        try TestFiles.write(Self.sentryEvent(frames: false), to: input)
        let options = IngestOptions(inputs: [input.path], quarantineDirectory: folder.appendingPathComponent("q").path, jobs: 1)
        // Given a report stored before the manifest named any screen
        _ = try IngestPipeline(store: store, decoder: try Self.codec(screens: false), options: options).run()
        #expect(try store.groups().map(\.signature) == ["MemoryTermination/SIGKILL @ (no frames)"])
        // When it is reprocessed with a manifest that names them
        let summary = try store.reprocess(with: PayloadDeriver(decoder: try Self.codec()))
        // Then it has its inferred trail, and its group names its crash screen
        #expect(summary.changed == 1)
        let group = try #require(try store.groups().first)
        #expect(group.signature == "MemoryTermination/SIGKILL @ screen:item")
        #expect(group.withTrail == 1 && group.inferred == 1)
    }
}
