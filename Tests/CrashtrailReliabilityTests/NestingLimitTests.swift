import CrashtrailCore
import CrashtrailEncoding
import CrashtrailIntake
import CrashtrailStore
import CrashtrailTestSupport
import Foundation
import Testing

/// JSON nested 100,000 deep, in every parser that reads untrusted JSON: refused with a clear error, never a
/// stack overflow.
@Suite("Nesting 100,000 deep")
struct NestingLimitTests {
    static let depth = 100_000
    static let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    static let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)

    @Test("The strict core parser refuses it at its depth limit", arguments: [arrays, objects])
    func coreParser(_ text: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(error.code == .tooDeep, "\(error)")
        let trail = try #require(throws: TrailError.self) { try Trail(json: Array(text.utf8)) }
        #expect(trail.code == .invalidJSON)
        let codec = try #require(throws: TrailCodecError.self) { try TrailCodec().decode(Array(("{\"x\":" + text + "}").utf8)) }
        #expect(codec.code == .invalidTrail, "\(codec)")
    }

    /// One payload of each format with the deep value in a field its parser reads or skips.
    static let payloads: [(String, String)] = [
        ("crashtrail-trail", #"{"crashtrail":1,"id":"deep-1","time":"2026-11-02T14:50:00Z","trail":\#(arrays)}"#),
        ("crashtrail-extra", #"{"crashtrail":1,"id":"deep-2","time":"2026-11-02T14:50:00Z","extra":\#(objects)}"#),
        ("sentry-event", #"{"event_id":"00000000000000000000000000000001","exception":{"values":\#(arrays)}}"#),
        ("sentry-trail", #"{"event_id":"00000000000000000000000000000002","contexts":{"crashtrail":{"trail":\#(objects)}}}"#),
        ("kscrash", #"{"report":{"id":"deep"},"crash":\#(objects),"user":{"crashtrail":\#(arrays)}}"#),
        ("crashlytics", #"{"event_id":"deep","issue_id":"i","custom_keys":\#(arrays)}"#),
        ("ips", #"{"bug_type":"309","incident_id":"deep"}"# + "\n" + #"{"threads":\#(arrays)}"#),
        (
            "envelope",
            #"{"event_id":"00000000000000000000000000000003"}"# + "\n" + #"{"type":"event"}"# + "\n" + #"{"exception":\#(objects)}"#
        ),
        ("unknown", objects),
    ]

    @Test("crashtrail ingest refuses deeply nested payloads of every format and keeps running")
    func payloadParsers() throws {
        // Given: one deep payload per format, each in its own file
        let folder = try TemporaryFolder("crashtrail-deep")
        defer { folder.remove() }
        let inputs = folder.url.appendingPathComponent("in")
        for (name, text) in Self.payloads { try folder.write(text, to: "in/\(name).json") }
        // When
        let (result, summary) = try ReliabilityCLI.ingest(
            [inputs.path], store: folder.url.appendingPathComponent("s.sqlite"),
            quarantine: folder.url.appendingPathComponent("q"), in: folder.url)
        // Then: no crash; each is stored (the deep part unread, or the trail undecodable) or refused
        #expect(result.status == 0, "\(ReliabilityCLI.describe(result))")
        let stored = ReliabilityCLI.count(summary, "stored")
        let rejected = ReliabilityCLI.count(summary, "rejected")
        #expect(stored + rejected == Self.payloads.count, "\(result.stdout)")
    }

    @Test("The core parser also refuses it in the collector's processor, in process", arguments: [arrays, objects])
    func processor(_ deep: String) {
        let processor = PayloadProcessor(decoder: TrailCodec())
        let text = #"{"crashtrail":1,"id":"deep","time":"2026-11-02T14:50:00Z","trail":\#(deep)}"#
        let bytes = Array(text.utf8)
        let (outcomes, inputs) = bytes.withUnsafeBufferPointer { processor.process($0, source: "deep.json") }
        #expect(inputs == 1)
        #expect(outcomes.count == 1)
    }

    @Test("A manifest nested 100,000 deep is refused by manifest check, not a crash")
    func manifest() throws {
        let folder = try TemporaryFolder("crashtrail-deep-manifest")
        defer { folder.remove() }
        for (name, text) in [("flow.yml", "app: a\nroot: x\ndestinations: " + Self.arrays), ("block.yml", Self.deepBlockYAML)] {
            let file = try folder.write(text, to: name)
            let result = try ReliabilityCLI.require().run(["manifest", "check", file.path])
            #expect(result.status == 1, "\(name): \(ReliabilityCLI.describe(result))")
            #expect(result.stderr.hasPrefix("Error: ") || result.stderr.contains(name), "\(name): \(result.stderr.prefix(300))")
        }
    }

    /// Block mappings nested 2,000 deep by indentation (100,000 would be 5 GB of spaces).
    static let deepBlockYAML: String = {
        var text = "app: a\nroot: x\ndestinations:\n"
        for level in 1...2_000 { text += String(repeating: " ", count: level) + "k:\n" }
        return text
    }()
}
