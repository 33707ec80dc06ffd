import CrashtrailCore
import CrashtrailReports
import CrashtrailStore
import Foundation
import Testing

@testable import CrashtrailForward

/// The event an upstream receives (SPEC section 17): reports of other formats converted, Sentry events with additions
/// only, crashtrail's additions.
@Suite("Forwarded events")
struct SentryEventBuilderTests {
    static let report = CrashReport(
        id: "2DCB1CE7-FA57-9700-BD91-959C4C6EFCC9", format: .ips,
        app: .init(bundleID: "com.example.piratebay", version: "3.1.0", build: "310"), os: .init(name: "iPhone OS", version: "17.4"),
        device: "iPhone15,2", time: "2026-11-02T14:45:05.250Z",
        exception: ExceptionInfo(type: "EXC_BAD_ACCESS", code: "0x1, 0x10", signal: "SIGSEGV", reason: nil, mach: "EXC_BAD_ACCESS"),
        frames: [
            StackFrame(image: "PirateBay", symbol: "divide", offset: 0x447c, inApp: true, file: "/src/crash.c", line: 49, inlined: true),
            StackFrame(image: "PirateBay", symbol: "crash_divide", offset: 0x447c, inApp: true, file: "/src/crash.c", line: 53),
            StackFrame(image: "UIKitCore", symbol: nil, offset: 1234, inApp: false),
        ],
        binaryImages: [
            BinaryImage(name: "PirateBay", uuid: "4C4C44C2-5555-3144-A122-28AFF5799215", loadAddress: 0x1_0480_0000),
            BinaryImage(name: "UIKitCore", uuid: nil, loadAddress: 0x1_8000_0000),
        ],
        signature: "EXC_BAD_ACCESS/SIGSEGV @ divide < crash_divide", trailInfo: .init(source: .embedded, steps: 2))

    static let enrichment = ForwardEnrichment(
        source: .embedded, steps: 2,
        crumbs: [
            .init(time: 1_793_630_700.0, op: "push", from: nil, to: "home", url: "piratebay://home"),
            .init(time: 1_793_630_705.5, op: "push", from: "home", to: "item", url: nil),
        ],
        crashScreens: ["home", "item"], links: ["piratebay://item/P-7"], replayURL: "https://crashes.example.com/reports/x.html",
        group: "ab8bd8a88e91", signature: "EXC_BAD_ACCESS/SIGSEGV @ divide < crash_divide")

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("A report of another format becomes a Sentry event: exception, mechanism, frames oldest first, images, contexts, release")
    func converted() throws {
        let event = try Self.object(SentryEventBuilder(grouping: false).event(of: Self.report, original: nil, enrichment: Self.enrichment))
        #expect(event["event_id"] as? String == "2dcb1ce7fa579700bd91959c4c6efcc9")
        #expect(event["release"] as? String == "com.example.piratebay@3.1.0+310")
        #expect(event["platform"] as? String == "cocoa")
        #expect((event["timestamp"] as? Double).map { abs($0 - 1_793_630_705.25) < 0.001 } == true)
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(exception["type"] as? String == "EXC_BAD_ACCESS")
        let meta = try #require((exception["mechanism"] as? [String: Any])?["meta"] as? [String: Any])
        #expect((meta["signal"] as? [String: Any])?["number"] as? Int == 11)
        let mach = try #require(meta["mach_exception"] as? [String: Any])
        #expect(mach["exception"] as? Int == 1 && mach["code"] as? Int == 1 && mach["subcode"] as? Int == 16)
        let frames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.map { $0["function"] as? String } == ["<unknown>", "crash_divide", "divide"])
        #expect(frames.last?["instruction_addr"] as? String == "0x10480447c")
        #expect(frames.last?["lineno"] as? Int == 49 && frames.last?["filename"] as? String == "crash.c")
        #expect(frames.first?["in_app"] as? Bool == false)
        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.count == 1 && images[0]["debug_id"] as? String == "4c4c44c2-5555-3144-a122-28aff5799215")
        let contexts = try #require(event["contexts"] as? [String: Any])
        #expect((contexts["app"] as? [String: Any])?["app_identifier"] as? String == "com.example.piratebay")
        #expect((contexts["device"] as? [String: Any])?["model"] as? String == "iPhone15,2")
        #expect(event["fingerprint"] == nil)
    }

    @Test("A Sentry event keeps every field it came with; breadcrumbs merge by time; tags in either form; the fingerprint on request")
    func additionsOnly() throws {
        // Given an event with its own breadcrumbs (one a text time), tags as pairs, and fields crashtrail does not know
        let text = #"""
            {"event_id":"0123456789abcdef0123456789abcdef","platform":"cocoa","message":"boom","extra":{"k":[1,2.50,"x",1e3]},
             "tags":[["plan","pro"]],"contexts":{"os":{"name":"iOS"}},
             "breadcrumbs":{"values":[{"timestamp":1793630702.0,"message":"tap buy"},{"timestamp":"2026-11-02T14:45:06Z","message":"last"}]}}
            """#
        let original = try #require(try EventJSON.parse(Array(text.utf8)).object)
        var report = Self.report
        report.id = "0123456789abcdef0123456789abcdef"

        // When
        let event = try Self.object(SentryEventBuilder(grouping: true).event(of: report, original: original, enrichment: Self.enrichment))

        // Then what came is there as it came
        #expect(event["message"] as? String == "boom")
        // Numbers keep the text they came as
        let bytes = SentryEventBuilder(grouping: true).event(of: report, original: original, enrichment: Self.enrichment)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""extra":{"k":[1,2.50,"x",1e3]}"#))
        #expect(event["exception"] == nil, "a Sentry event is not converted")
        #expect(((event["contexts"] as? [String: Any])?["os"] as? [String: Any])?["name"] as? String == "iOS")
        // The breadcrumbs, the event's and the trail's, by time
        let crumbs = try #require((event["breadcrumbs"] as? [String: Any])?["values"] as? [[String: Any]])
        #expect(crumbs.map { $0["message"] as? String } == ["push → home", "tap buy", "push → item", "last"])
        #expect(crumbs[2]["category"] as? String == "navigation" && crumbs[2]["type"] as? String == "navigation")
        #expect((crumbs[2]["data"] as? [String: Any])?["from"] as? String == "home")
        #expect((crumbs[0]["data"] as? [String: Any])?["url"] as? String == "piratebay://home")
        // The context, the tags, the fingerprint
        let context = try #require((event["contexts"] as? [String: Any])?["crashtrail"] as? [String: Any])
        #expect(context["crashScreens"] as? [String] == ["home", "item"])
        #expect(context["links"] as? [String] == ["piratebay://item/P-7"])
        #expect(context["replay"] as? String == "https://crashes.example.com/reports/x.html")
        #expect(context["source"] as? String == "embedded" && context["steps"] as? Int == 2)
        let tags = try #require(event["tags"] as? [String: Any])
        #expect(tags["plan"] as? String == "pro" && tags["crashtrail.screen"] as? String == "item")
        #expect(tags["crashtrail.group"] as? String == "ab8bd8a88e91")
        #expect(event["fingerprint"] as? [String] == ["EXC_BAD_ACCESS/SIGSEGV @ divide < crash_divide"])
    }

    @Test("A report's ID gives its event ID: a UUID's hex digits, a SHA-256's first 32, else a hash of the ID")
    func eventIDs() {
        #expect(SentryEventBuilder.eventID(of: "2DCB1CE7-FA57-9700-BD91-959C4C6EFCC9") == "2dcb1ce7fa579700bd91959c4c6efcc9")
        let sha = String(repeating: "ab", count: 32)
        #expect(SentryEventBuilder.eventID(of: sha) == String(sha.prefix(32)))
        let clash = SentryEventBuilder.eventID(of: "2DCB1CE7-FA57-9700-BD91-959C4C6EFCC9~1a2b3c4d")
        #expect(clash.count == 32 && clash.allSatisfy(\.isHexDigit) && clash != "2dcb1ce7fa579700bd91959c4c6efcc9")
    }

    @Test("The event of a stored envelope is its event item, the one of the report's ID among several")
    func envelopeEvent() throws {
        let first = #"{"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","message":"one"}"#
        let second = #"{"event_id":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","message":"two"}"#
        let payload = Array(
            """
            {"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
            {"type":"attachment","length":3,"filename":"a.bin"}
            \u{0}\u{1}\n
            {"type":"event","length":\(first.utf8.count)}
            \(first)
            {"type":"event"}
            \(second)

            """.utf8)
        // The members the builder does not read come as their bytes.
        let (one, two) = (EventJSON.verbatim(ArraySlice(#""one""#.utf8)), EventJSON.verbatim(ArraySlice(#""two""#.utf8)))
        #expect(SentryEnvelope.event(in: payload, eventID: "BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB")?["message"] == two)
        #expect(SentryEnvelope.event(in: payload, eventID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")?["message"] == one)
        #expect(SentryEnvelope.event(in: Array(first.utf8), eventID: "x")?["message"] == one)
        #expect(SentryEnvelope.event(in: Array("not json\n{}".utf8), eventID: "x") == nil)
        let envelope = SentryEnvelope.envelope(eventID: "aaaa", event: Array(first.utf8), sentAt: "2026-11-02T00:00:00.000Z")
        let lines = String(decoding: envelope, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3 && lines[1].contains("\"length\":\(first.utf8.count)"))
    }

    @Test("Event JSON reads what JSON allows and keeps it byte for byte where it writes it; what is not JSON is refused with its offset")
    func eventJSON() throws {
        let text = #"{"a":[true,false,null,-1.5e-3,"\u00e9\n"],"b":{},"c":[],"a2":0}"#
        let value = try EventJSON.parse(Array(text.utf8))
        #expect(String(decoding: value.bytes, as: UTF8.self) == #"{"a":[true,false,null,-1.5e-3,"é\n"],"b":{},"c":[],"a2":0}"#)
        #expect(value.object?.keys == ["a", "b", "c", "a2"])
        for bad in ["", "{", #"{"a" 1}"#, "[1,]", "tru", "{} x", "-", #""a\u00""#] {
            #expect(throws: JSONParseError.self, "\(bad)") { try EventJSON.parse(Array(bad.utf8)) }
        }
        // The one JSON error: its kind, line and byte
        let truncated = #expect(throws: JSONParseError.self) { try EventJSON.parse(Array("{\n\"a\":".utf8)) }
        #expect(truncated?.code == .truncated)
        #expect(truncated?.location == "line 2, byte 6")
        // Nesting past 128 is refused as such, however well it closes
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let error = #expect(throws: JSONParseError.self) { try EventJSON.parse(Array(deep.utf8)) }
        #expect(error?.code == .tooDeep)
    }

    @Test("An event read for forwarding parses only the members the builder reads, keeps the others byte for byte, and checks them all")
    func verbatimMembers() throws {
        // Given an event whose members crashtrail does not read are written with white space, escapes and number texts
        let text = #"""
            { "event_id":"0123456789abcdef0123456789abcdef", "extra" : {"k": [1, 2.50, "\u00e9\n", 1e3, true, null]},
              "message":"caf\u00e9 ☕", "tags":{"plan":"pro"} }
            """#
        // When it is read as forwarding reads it
        let value = try EventJSON.parse(Array(text.utf8), readingMembers: SentryEventBuilder.readMembers)
        let object = try #require(value.object)
        // Then the members the builder reads are parsed, and the others are their own bytes
        #expect(object["event_id"]?.string == "0123456789abcdef0123456789abcdef")
        #expect(object["tags"]?.object?["plan"]?.string == "pro")
        #expect(object["extra"] == .verbatim(ArraySlice(#"{"k": [1, 2.50, "\u00e9\n", 1e3, true, null]}"#.utf8)))
        #expect(object["message"] == .verbatim(ArraySlice(#""caf\u00e9 ☕""#.utf8)))
        #expect(object.keys == ["event_id", "extra", "message", "tags"])
        // And the event written back is JSON that reads as the original
        let written = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? NSDictionary)
        let original = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        #expect(written == original)
        // And a problem inside a member that is only checked is refused as a full parse refuses it
        for bad in [
            #"{"extra":[1,]}"#, #"{"extra":{"a" 1}}"#, #"{"extra":"open}"#, #"{"extra":tru}"#, #"{"extra":-}"#, #"{"x":"\u00"}"#,
            #"{"x":1} x"#, "{\"x\":\"\u{1}\"}",
        ] {
            #expect(throws: JSONParseError.self, "\(bad)") { try EventJSON.parse(Array(bad.utf8), readingMembers: []) }
        }
        let invalidUTF8: [UInt8] = Array(#"{"x":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { try EventJSON.parse(invalidUTF8, readingMembers: []) }
        let deep = #"{"x":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
        let error = #expect(throws: JSONParseError.self) { try EventJSON.parse(Array(deep.utf8), readingMembers: []) }
        #expect(error?.code == .tooDeep)
        // And a document that is not an object reads as a full parse reads it
        #expect(try EventJSON.parse(Array("[1,2]".utf8), readingMembers: []) == .array([.number("1"), .number("2")]))
    }
}
