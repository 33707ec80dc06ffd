import CrashtrailCore
import Foundation
import Testing

@testable import CrashtrailReplay

/// The renderers' contracts beyond the golden files: canonical JSON, colour only when asked, scripts that
/// bash accepts, Swift identifiers and literals that compile.
@Suite("Replay renderers")
struct RendererTests {
    typealias M = TestManifests

    func replay(_ steps: [Step], final: NavigationState? = nil, report: String = "crash.json") throws -> Replay {
        let trail = Trail(
            app: .init(bundleID: "com.example.piratebay", version: "1", build: "2"),
            session: .init(id: "S", started: "2026-11-01T00:00:00Z", pid: 1), steps: steps, final: final)
        return Replayer(manifest: try M.piratebay()).replay(trail, report: report)
    }

    @Test("time is mm:ss.mmm, minutes growing past two digits")
    func times() {
        #expect(TimeText.format(milliseconds: 0) == "00:00.000")
        #expect(TimeText.format(milliseconds: 61_005) == "01:01.005")
        #expect(TimeText.format(milliseconds: 6_000_000) == "100:00.000")
    }

    @Test("json is canonical, ends with one newline, and has a difference only when not verified")
    func json() throws {
        let steps = [Step(t: 10, .push(M.d("item", ["id": "L/1"]))), Step(t: 20, .open(.url("piratebay://nope")))]
        let unverified = try replay(steps, final: M.launchLike())
        let output = ReplayRenderer.render(unverified, as: .json)
        #expect(output.hasSuffix("}\n") && !output.hasSuffix("\n\n"))
        let value = try JSONParser.parse(Array(output.utf8))
        #expect(CanonicalJSON.string(of: value) + "\n" == output)
        #expect(value["verified"] == .bool(false))
        #expect(value["difference"] == .string(#"stacks[0][1]: replayed {"item":{"id":"L/1"}}, recorded none"#))
        let lastStep = try #require(value["steps"]?.arrayValue?.last)
        #expect(lastStep["to"] == JSONValue.null)
        let firstAnomaly = try #require(value["anomalies"]?.arrayValue?.first)
        #expect(firstAnomaly["kind"] == .string("unknown-url"))
        #expect(firstAnomaly["after"] == nil)

        let unrecorded = try JSONParser.parse(Array(ReplayRenderer.render(try replay(steps), as: .json).utf8))
        #expect(unrecorded["verified"] == .null)
        #expect(unrecorded["recordedFinal"] == .null)
        #expect(unrecorded["difference"] == nil)
    }

    @Test("text has ANSI colour only when asked")
    func colour() throws {
        let replay = try replay([Step(t: 5, .pop)])
        #expect(!ReplayRenderer.render(replay, as: .text).contains("\u{1B}["))
        #expect(ReplayRenderer.render(replay, as: .text, options: RenderOptions(colour: true)).contains("\u{1B}[33mpop-at-root"))
    }

    @Test("text lines carry no trailing blanks")
    func noTrailingBlanks() throws {
        let text = ReplayRenderer.render(try replay([Step(t: 5, .select(tab: 1)), Step(t: 9, .pop)]), as: .text)
        for line in text.split(separator: "\n") { #expect(line.last != " ", "\(line)") }
    }

    @Test("urls prints one link a line and nothing when there are none")
    func urls() throws {
        #expect(ReplayRenderer.render(try replay([]), as: .urls) == "")
        let two = try replay([Step(t: 1, .push(M.d("item", ["id": "A"]))), Step(t: 2, .push(M.d("settings")))])
        #expect(ReplayRenderer.render(two, as: .urls) == "piratebay://item/A\npiratebay://settings\n")
    }

    @Test("single quotes are escaped for bash, and comments stay on one line")
    func shellQuoting() {
        #expect(ShellQuoting.singleQuoted("a'b") == #"'a'\''b'"#)
        #expect(ShellQuoting.commentSafe("a\nb\u{7F}") == "a?b?")
    }

    @Test(
        "the simctl script is valid bash with the pause between links", arguments: [(2.0, "sleep 2"), (0.25, "sleep 0.25"), (0, "sleep 0")])
    func simctl(_ pause: Double, _ sleep: String) throws {
        let replay = try replay(
            [Step(t: 1, .push(M.d("item", ["id": "A"]))), Step(t: 2, .push(M.d("settings")))], report: "it's\nhere.json")
        let script = ReplayRenderer.render(replay, as: .simctl, options: RenderOptions(pause: pause))
        #expect(script.hasPrefix("#!/usr/bin/env bash\n"))
        #expect(script.contains("\nset -euo pipefail\n"))
        #expect(
            script.contains(
                "\nxcrun simctl openurl booted 'piratebay://item/A'\n\(sleep)\nxcrun simctl openurl booted 'piratebay://settings'\n"))
        #expect(script.contains("# Opens the shortest links of crash report it's?here.json"))
        // bash -n parses without running.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(
        "xcuitest method names are Swift identifiers derived from the report",
        arguments: [
            ("Samples/trails-golden/trails/checkout-crash.json", "testReplay_checkout_crash"),
            ("4D1FE12F~0a1b2c3d4e5f", "testReplay_4D1FE12F_0a1b2c3d4e5f"),
            ("crash.ips", "testReplay_crash"), ("", "testReplay_report"), ("ünï cödé", "testReplay__n__c_d_"),
        ])
    func methodNames(_ report: String, _ name: String) {
        #expect(XCUITestRenderer.methodName(for: report) == name)
    }

    @Test("xcuitest opens every link with XCTUnwrap and no force unwrap")
    func xcuitest() throws {
        let replay = try replay([Step(t: 1, .push(M.d("search", ["text": #"say "hi"\"#])))])
        let source = ReplayRenderer.render(replay, as: .xcuitest)
        #expect(source.contains("func testReplay_crash() throws {"))
        #expect(source.contains("try XCTUnwrap(URL(string: link.url)"))
        #expect(source.contains("app.open(url)"))
        #expect(source.contains(#"("piratebay://search?q=say%20%22hi%22%5C", 1),"#))
        #expect(!source.contains("!)") && !source.contains("try!"))
        #expect(XCUITestRenderer.swiftStringLiteral("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u{1}""#)
    }
}

extension TestManifests {
    /// PirateBay's launch state.
    static func launchLike() -> NavigationState { tabs(0) }
}
