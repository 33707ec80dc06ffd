import CrashtrailCore
import CrashtrailReplay
import Testing

/// The simctl script and the XCUITest method start from launch and wait out modal transitions.
@Suite("Reproduction from launch")
struct ReproductionScriptTests {
    /// A replay whose shortest links present a modal, then push inside it, under a 3 s modal transition.
    static func replay() throws -> Replay {
        let manifest = try Manifest(
            yaml: """
                app: com.example.slow
                tabs: [home]
                transitions: { modal: 3000 }
                destinations:
                  home:  { url: "slow://home" }
                  help:  { url: "slow://help", presentation: modal }
                  topic: { url: "slow://topic/{id}" }
                """)
        let trail = Trail(
            app: .init(bundleID: "com.example.slow", version: "1", build: "1"),
            session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1),
            steps: [Step(t: 0, .present(Destination("help"))), Step(t: 9_000, .push(Destination("topic", ["id": "a"])))])
        return Replayer(manifest: manifest).replay(trail, report: "slow")
    }

    @Test("The script relaunches the app before the first link and waits the transition after a link that starts one")
    func simctl() throws {
        let replay = try Self.replay()
        #expect(replay.links.urls == ["slow://help", "slow://topic/a"])
        #expect(replay.links.startsModalTransition == [true, false])
        let script = ReplayRenderer.render(replay, as: .simctl, options: RenderOptions(pause: 2))
        let lines = script.split(separator: "\n").map(String.init)
        let terminate = try #require(lines.firstIndex(of: "xcrun simctl terminate booted \"$app\" 2>/dev/null || true"))
        let launch = try #require(lines.firstIndex(of: "xcrun simctl launch booted \"$app\""))
        let first = try #require(lines.firstIndex(of: "xcrun simctl openurl booted 'slow://help'"))
        let second = try #require(lines.firstIndex(of: "xcrun simctl openurl booted 'slow://topic/a'"))
        #expect(lines.contains("app='com.example.slow'"))
        #expect(terminate < launch && launch < first && first < second)
        #expect(lines[first - 1] == "sleep 2")
        #expect(lines[second - 1] == "sleep 3.25", "after the modal: the 3 s transition and a quarter second, not the 2 s pause")
        // A pause longer than the transition is kept.
        let patient = ReplayRenderer.render(replay, as: .simctl, options: RenderOptions(pause: 5))
        #expect(!patient.contains("sleep 3.25") && patient.contains("sleep 5\nxcrun simctl openurl booted 'slow://topic/a'"))
    }

    @Test("The XCUITest method launches, settles after each link (the transition after a modal) and attaches a screenshot")
    func xcuitest() throws {
        let method = ReplayRenderer.render(try Self.replay(), as: .xcuitest, options: RenderOptions())
        #expect(
            method.contains(
                "    app.launch()\n    XCTAssertTrue(app.wait(for: .runningForeground, timeout: 30), \"the app did not launch\")"))
        #expect(method.contains("        (\"slow://help\", 3.25),\n        (\"slow://topic/a\", 1),"))
        #expect(method.contains("RunLoop.current.run(until: Date(timeIntervalSinceNow: link.settle))"))
        #expect(method.contains("XCTAttachment(screenshot: app.screenshot())") && method.contains("add(screenshot)"))
        let launch = try #require(method.range(of: "app.launch()"))
        let open = try #require(method.range(of: "app.open(url)"))
        #expect(launch.lowerBound < open.lowerBound)
    }
}
