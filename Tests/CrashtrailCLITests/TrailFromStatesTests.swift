import CrashtrailCore
import CrashtrailTestSupport
import Foundation
import Testing

/// `crashtrail trail from-states` (SPEC section 11), end to end.
@Suite("crashtrail trail from-states")
struct TrailFromStatesTests {
    static let manifest = PackageRoot.url.appendingPathComponent("Samples/PirateBay/Sources/PirateBay/piratebay.yml").path
    static let launch =
        #"{"tab":0,"stacks":[[{"home":{}}],[{"marketplace":{}}],[{"myProfile":{}}]],"modals":[],"conditions":[],"pending":null}"#
    static let item =
        #"{"tab":1,"stacks":[[{"home":{}}],[{"marketplace":{}},{"item":{"id":"L-42"}}],[{"myProfile":{}}]],"modals":[],"conditions":[],"pending":null}"#
    static let sheet =
        #"{"tab":1,"stacks":[[{"home":{}}],[{"marketplace":{}},{"item":{"id":"L-42"}}],[{"myProfile":{}}]],"modals":[[{"login":{}}]],"conditions":[],"pending":null}"#

    @Test("Observations become a trail whose replay passes through each, printed as canonical JSON")
    func makesATrail() throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let input = [#"{"t":0,"state":\#(Self.launch)}"#, #"{"t":4000,"state":\#(Self.item)}"#, #"{"t":9000,"state":\#(Self.sheet)}"#]
        let result = try runner.run(
            ["trail", "from-states", "--manifest", Self.manifest, "--app-version", "3.1.0"],
            stdin: Array(input.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let trail = try Trail(json: result.stdoutBytes)
        #expect(trail.base == nil, "the first observation is the launch state")
        #expect(trail.steps.map(\.op.name) == ["select", "push", "present"])
        #expect(trail.app.version == "3.1.0" && trail.app.bundleID == "com.example.piratebay")
        var engine = NavigationEngine(manifest: try Manifest(contentsOfFile: Self.manifest))
        engine.apply(Array(trail.steps.prefix(2)))
        #expect(engine.state == (try NavigationState(jsonValue: try JSONParser.parse(Array(Self.item.utf8)), path: "item")))
        engine.apply(trail.steps[2])
        #expect(trail.final == engine.state)
        #expect(result.stdout == String(decoding: trail.canonicalJSON, as: UTF8.self) + "\n")
    }

    @Test(
        "Bad observations exit 1 naming the line",
        arguments: [
            ("{\"t\":0,\"state\":\(launch)}\nnot json", "line 2: not JSON"),
            (
                "{\"t\":0,\"state\":\(launch)}\n{\"t\":100,\"state\":\(sheet)}\n{\"t\":300,\"state\":\(item)}",
                "line 3: the change needs modal transitions"
            ),
            ("{\"t\":0,\"state\":\(launch)}\n{\"t\":0,\"state\":\(item)}", "line 2: the observation at 0 ms is not after"),
            ("{\"t\":0}", "line 1: an observation is exactly"),
            ("", "no observation"),
        ])
    func badInput(input: String, message: String) throws {
        let runner = try #require(CommandRunner.locate(), "the crashtrail executable was not built")
        let result = try runner.run(["trail", "from-states", "--manifest", Self.manifest], stdin: Array(input.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
